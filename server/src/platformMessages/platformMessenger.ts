import { fillMessage, messages } from '@shared/messages';
import { AUTH, TEAM } from '@shared/constants';
import type { WhatsAppProvider } from '../sending/providers/types';
import type { SenderNumber } from '../sending/senderNumbers';
import { templateSendRequest } from '../sending/messageRequest';
import { PLATFORM_INVITE_TEMPLATE, PLATFORM_OTP_TEMPLATE, PLATFORM_PHONE_NUMBER_ID, platformAuthenticationTemplate, platformInviteTemplate } from '../sending/platformSender';

export { PLATFORM_INVITE_TEMPLATE, PLATFORM_OTP_TEMPLATE, PLATFORM_PHONE_NUMBER_ID };

/** What a team invitation message says: the account, the role offered and the one-time link. */
export interface TeamInviteMessage {
  accountName: string;
  roleLabel: string;
  link: string;
}

/** What the platform's messenger needs of the simulator's outbox (simulator/outbox.ts): it keeps a message and answers its id. */
export interface PlatformOutbox {
  record(message: { to: string; from: string; kind: 'authentication' | 'template'; text: string; template: string }): { id: string };
}

/** The platform's sandbox sender on the simulator. */
export const PLATFORM_SIMULATOR_NUMBER: SenderNumber = {
  id: 0,
  userId: 0,
  provider: 'simulator',
  phoneNumberId: PLATFORM_PHONE_NUMBER_ID,
  displayNumber: '',
  label: 'Platform',
  messagesPerSecond: 80,
  isSandbox: true,
  isActive: true,
};

/**
 * Messages the platform itself sends from its own WhatsApp number (password-reset codes, team
 * invitations).
 * The sending engine will put a real provider behind this interface; until then the simulator
 * outbox receives them in development and tests.
 */
export interface PlatformMessenger {
  readonly available: boolean;
  sendAuthenticationCode(to: string, code: string): Promise<{ messageId: string }>;
  sendTeamInvite(to: string, invite: TeamInviteMessage): Promise<{ messageId: string }>;
}

export class SimulatorPlatformMessenger implements PlatformMessenger {
  readonly available = true;

  constructor(
    private readonly deps: { outbox: PlatformOutbox; senderNumber: string; brandName: string },
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

  async sendTeamInvite(to: string, invite: TeamInviteMessage): Promise<{ messageId: string }> {
    const text = fillMessage(messages.team.inviteWhatsApp, {
      account: invite.accountName,
      role: invite.roleLabel,
      link: invite.link,
      brand: this.deps.brandName,
      days: TEAM.inviteTtlDays,
    });
    const stored = this.deps.outbox.record({ to, from: this.deps.senderNumber, kind: 'template', text, template: PLATFORM_INVITE_TEMPLATE });
    return { messageId: stored.id };
  }
}

/**
 * Codes travel the same path as every campaign message: a Cloud API template send through the
 * provider adapter (in development and tests, to the simulator, which renders and keeps it).
 */
export class ProviderPlatformMessenger implements PlatformMessenger {
  readonly available = true;

  constructor(
    private readonly deps: {
      /** The adapter at send time: the embedded simulator's address is known only once the server listens. */
      provider: () => WhatsAppProvider | null;
      /** The sender: the simulator's platform id, or the platform's own Cloud API number id. */
      phoneNumberId: string;
      brandName: string;
      /** Name of the approved authentication template (Meta: `password_reset_code`, or another). */
      templateName?: string;
      /** Name of the approved utility template for team invitations (Meta: `team_invitation`, or another). */
      inviteTemplateName?: string;
    },
  ) {}

  async sendAuthenticationCode(to: string, code: string): Promise<{ messageId: string }> {
    const provider = this.deps.provider();
    if (!provider) throw new Error('No WhatsApp provider is configured for platform messages');
    const name = this.deps.templateName ?? PLATFORM_OTP_TEMPLATE;
    const result = await provider.sendTemplate(
      templateSendRequest({
        phoneNumberId: this.deps.phoneNumberId,
        to,
        template: { name, language: 'en_US', category: 'AUTHENTICATION', components: platformAuthenticationTemplate(PLATFORM_OTP_TEMPLATE, this.deps.brandName) ?? [] },
        values: { '1': code },
        headerMedia: null,
      }),
    );
    if (!result.ok) throw new Error(`Provider refused the code message: ${result.code} ${result.title}`);
    return { messageId: result.providerMessageId };
  }

  async sendTeamInvite(to: string, invite: TeamInviteMessage): Promise<{ messageId: string }> {
    const provider = this.deps.provider();
    if (!provider) throw new Error('No WhatsApp provider is configured for platform messages');
    const result = await provider.sendTemplate(
      templateSendRequest({
        phoneNumberId: this.deps.phoneNumberId,
        to,
        template: { name: this.deps.inviteTemplateName ?? PLATFORM_INVITE_TEMPLATE, language: 'en_US', category: 'UTILITY', components: platformInviteTemplate(this.deps.brandName) },
        values: { '1': invite.accountName, '2': invite.roleLabel, '3': invite.link },
        headerMedia: null,
      }),
    );
    if (!result.ok) throw new Error(`Provider refused the invitation message: ${result.code} ${result.title}`);
    return { messageId: result.providerMessageId };
  }
}

/** Production without a configured provider: codes and invitations cannot be delivered, and we say so. */
export class UnavailablePlatformMessenger implements PlatformMessenger {
  readonly available = false;

  async sendAuthenticationCode(): Promise<{ messageId: string }> {
    throw new Error('No WhatsApp provider is configured for platform messages');
  }

  async sendTeamInvite(): Promise<{ messageId: string }> {
    throw new Error('No WhatsApp provider is configured for platform messages');
  }
}
