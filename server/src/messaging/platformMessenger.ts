import { fillMessage, messages } from '@shared/messages';
import { AUTH } from '@shared/constants';
import type { SimulatorOutbox } from '../simulator/outbox';

/**
 * Messages the platform itself sends from its own WhatsApp number (password-reset codes).
 * The sending engine will put a real provider behind this interface; until then the simulator
 * outbox receives them in development and tests.
 */
export interface PlatformMessenger {
  readonly available: boolean;
  sendAuthenticationCode(to: string, code: string): Promise<{ messageId: string }>;
}

export class SimulatorPlatformMessenger implements PlatformMessenger {
  readonly available = true;

  constructor(
    private readonly deps: { outbox: SimulatorOutbox; senderNumber: string; brandName: string },
  ) {}

  async sendAuthenticationCode(to: string, code: string): Promise<{ messageId: string }> {
    const text = fillMessage(messages.auth.otpMessage, {
      code,
      brand: this.deps.brandName,
      minutes: AUTH.otpTtlMinutes,
    });
    const stored = this.deps.outbox.record({
      to,
      from: this.deps.senderNumber,
      kind: 'authentication',
      text,
      template: 'password_reset_code',
    });
    return { messageId: stored.id };
  }
}

/** Production without a configured provider: codes cannot be delivered, and we say so. */
export class UnavailablePlatformMessenger implements PlatformMessenger {
  readonly available = false;

  async sendAuthenticationCode(): Promise<{ messageId: string }> {
    throw new Error('No WhatsApp provider is configured for platform messages');
  }
}
