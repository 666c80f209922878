import { describe, expect, it } from 'vitest';
import { messageFigures } from './figures';

describe('messageFigures', () => {
  it('counts a read message as delivered and sent, and leaves cancels, duplicates and opt-outs out of the rates', () => {
    const figures = messageFigures({ queued: 2, sent: 1, delivered: 3, read: 70, failed: 2, cancelled: 300, duplicate: 4, suppressed: 1 });
    expect(figures).toMatchObject({ total: 383, pending: 2, sent: 74, delivered: 73, read: 70, failed: 3, cancelled: 300, duplicate: 4, optedOut: 1, attempted: 76 });
    expect(figures.deliveryRate).toBe(96.1);
    expect(figures.readRate).toBe(92.1);
    expect(figures.failureRate).toBe(2.6);
  });

  it('holds a send awaiting confirmation as pending, neither sent nor failed, and out of the rates', () => {
    const figures = messageFigures({ sending: 1, unknown: 3, delivered: 6 });
    expect(figures).toMatchObject({ total: 10, pending: 4, awaitingConfirmation: 3, sent: 6, failed: 0, attempted: 6, deliveryRate: 100 });
  });

  it('answers 0 rates when nothing was attempted', () => {
    expect(messageFigures({ cancelled: 5 })).toMatchObject({ attempted: 0, deliveryRate: 0, readRate: 0, failureRate: 0 });
  });
});
