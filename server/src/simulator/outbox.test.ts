import { describe, expect, it } from 'vitest';
import { SimulatorOutbox } from './outbox';
import { randomHex } from './randomHex';

const message = (to: string, text: string) => ({ to, from: '15550000001', kind: 'template' as const, text, template: 'order_update' });

describe('SimulatorOutbox', () => {
  it('lists newest first, for one recipient or all, and keeps only the newest `capacity`', () => {
    const outbox = new SimulatorOutbox(3);
    expect(outbox.list()).toEqual([]);
    outbox.record(message('911', 'one'));
    outbox.record(message('912', 'two'));
    expect(outbox.list().map((m) => m.text)).toEqual(['two', 'one']);
    outbox.record(message('911', 'three'));
    outbox.record(message('911', 'four'));
    outbox.record(message('912', 'five'));
    // 'one' and 'two' were the oldest of five in a ring of three.
    expect(outbox.list().map((m) => m.text)).toEqual(['five', 'four', 'three']);
    expect(outbox.list('911').map((m) => m.text)).toEqual(['four', 'three']);
    expect(outbox.list('912').map((m) => m.text)).toEqual(['five']);
    expect(outbox.list('').map((m) => m.text)).toEqual(['five', 'four', 'three']);
    expect(outbox.list('999')).toEqual([]);
  });

  it('names each message with its own wamid and time', () => {
    const outbox = new SimulatorOutbox();
    const ids = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const stored = outbox.record(message(`91${i}`, 'hi'));
      expect(stored.id).toMatch(/^wamid\.SIM[0-9A-F]{24}$/);
      expect(Number.isNaN(Date.parse(stored.createdAt))).toBe(false);
      ids.add(stored.id);
    }
    expect(ids.size).toBe(1_000);
  });

  it('refuses a capacity that could hold nothing', () => {
    expect(() => new SimulatorOutbox(0)).toThrow(/positive integer/);
  });
});

describe('randomHex', () => {
  it('answers hex of the asked length, different each time, across refills of its pool', () => {
    const seen = new Set<string>();
    // 12 bytes at a time passes the 4,096-byte pool's end many times over.
    for (let i = 0; i < 2_000; i++) {
      const hex = randomHex(12);
      expect(hex).toMatch(/^[0-9a-f]{24}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(2_000);
    expect(randomHex(5_000)).toMatch(/^[0-9a-f]{10000}$/);
  });
});
