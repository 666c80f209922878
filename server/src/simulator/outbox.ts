import { randomHex } from './randomHex';

export interface SimulatedMessage {
  id: string;
  to: string;
  from: string;
  kind: 'authentication' | 'template' | 'text' | 'media';
  text: string;
  template: string | null;
  createdAt: string;
}

/**
 * What the simulator was asked to deliver, kept in memory so a developer and the tests can read
 * it at `GET /simulator/messages?to=<digits>`. Never used in production mode.
 */
export class SimulatorOutbox {
  /**
   * The newest `capacity` messages as a ring: recording one costs the same however full it is
   * (dropping the oldest from the front of an array moved all the others at every send).
   */
  private readonly ring: (SimulatedMessage | undefined)[];
  /** The slot the next message takes: the oldest one's, once the ring is full. */
  private next = 0;
  private count = 0;

  constructor(private readonly capacity = 5_000) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`outbox capacity must be a positive integer: ${capacity}`);
    this.ring = new Array<SimulatedMessage | undefined>(capacity);
  }

  record(message: Omit<SimulatedMessage, 'id' | 'createdAt'>): SimulatedMessage {
    // Field by field: a spread of the message cost many times more per send.
    const stored: SimulatedMessage = {
      id: `wamid.SIM${randomHex(12).toUpperCase()}`,
      to: message.to,
      from: message.from,
      kind: message.kind,
      text: message.text,
      template: message.template,
      createdAt: new Date().toISOString(),
    };
    this.ring[this.next] = stored;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    return stored;
  }

  /** Messages to one recipient, newest first; all of them when `to` is not given. */
  list(to?: string): SimulatedMessage[] {
    const newestFirst: SimulatedMessage[] = [];
    for (let back = 1; back <= this.count; back++) {
      const message = this.ring[(this.next - back + this.capacity) % this.capacity];
      if (message && (to === undefined || to === '' || message.to === to)) newestFirst.push(message);
    }
    return newestFirst;
  }
}
