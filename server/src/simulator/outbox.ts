import { randomBytes } from 'node:crypto';

export interface SimulatedMessage {
  id: string;
  to: string;
  from: string;
  kind: 'authentication' | 'template';
  text: string;
  template: string | null;
  createdAt: string;
}

/**
 * What the simulator was asked to deliver, kept in memory so a developer and the tests can read
 * it at `GET /simulator/messages?to=<digits>`. Never used in production mode.
 */
export class SimulatorOutbox {
  private readonly messages: SimulatedMessage[] = [];

  constructor(private readonly capacity = 5_000) {}

  record(message: Omit<SimulatedMessage, 'id' | 'createdAt'>): SimulatedMessage {
    const stored: SimulatedMessage = {
      ...message,
      id: `wamid.SIM${randomBytes(12).toString('hex').toUpperCase()}`,
      createdAt: new Date().toISOString(),
    };
    this.messages.push(stored);
    if (this.messages.length > this.capacity) this.messages.splice(0, this.messages.length - this.capacity);
    return stored;
  }

  /** Messages to one recipient, newest first; all of them when `to` is not given. */
  list(to?: string): SimulatedMessage[] {
    const matching = to ? this.messages.filter((m) => m.to === to) : this.messages;
    return [...matching].reverse();
  }
}
