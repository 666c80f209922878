import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import {
  defaultScheduleLocal,
  formatIstLabel,
  formatIstLocal,
  formatIstTime,
  istLocalToIso,
  istLocalToMs,
  resolveSchedule,
  SCHEDULE_MAX_DAYS,
  scheduleBounds,
  scheduledAcceptedText,
  scheduledNotice,
  scheduledSendLabel,
  scheduleProblem,
  SEND_NOW,
  toIstLocal,
} from './schedule';

// 24 Nov 2026, 08:56 UTC = 14:26 IST.
const NOW = new Date('2026-11-24T08:56:00.000Z');

describe('IST wall-clock times', () => {
  it('reads an instant as IST whatever the zone it was written in', () => {
    expect(toIstLocal('2026-11-25T05:00:00.000Z')).toBe('2026-11-25T10:30');
    expect(toIstLocal('2026-11-25T10:30:00+05:30')).toBe('2026-11-25T10:30');
    expect(toIstLocal('2026-11-25T00:00:00-05:00')).toBe('2026-11-25T10:30');
  });

  it('crosses the day and the year with the offset', () => {
    expect(toIstLocal('2026-12-31T20:00:00.000Z')).toBe('2027-01-01T01:30');
    expect(toIstLocal('not a time')).toBe('');
  });

  it('writes an IST time as ISO with +05:30, the same instant either way', () => {
    expect(istLocalToIso('2026-11-25T10:30')).toBe('2026-11-25T10:30:00+05:30');
    expect(istLocalToIso('2027-01-01T00:15:45')).toBe('2027-01-01T00:15:45+05:30');
    expect(new Date(istLocalToIso('2026-11-25T10:30') ?? '').toISOString()).toBe('2026-11-25T05:00:00.000Z');
    expect(istLocalToMs('2026-11-25T10:30')).toBe(Date.parse('2026-11-25T05:00:00.000Z'));
  });

  it('refuses what is not a real date and time', () => {
    for (const local of ['', '2026-02-30T10:00', '2026-11-25T24:00', '2026-11-25T10:60', '2026-11-25 10:30', '25/11/2026 10:30', '2026-11-25']) {
      expect(istLocalToIso(local), local).toBeNull();
    }
  });
});

describe('scheduleProblem', () => {
  it('takes a time between one minute and 60 days ahead', () => {
    expect(scheduleProblem('2026-11-24T15:26', NOW)).toBeNull();
    expect(scheduleProblem('2026-11-24T14:27', NOW)).toBeNull();
  });

  it('refuses a time less than a minute ahead, or past, with the server text', () => {
    expect(scheduleProblem('2026-11-24T14:26', NOW)).toBe(messages.schedule.tooSoon);
    expect(scheduleProblem('2026-11-24T14:26:59', NOW)).toBe(messages.schedule.tooSoon);
    expect(scheduleProblem('2026-11-23T10:00', NOW)).toBe(messages.schedule.tooSoon);
  });

  it('refuses a time more than 60 days ahead', () => {
    // 60 days after 14:26 IST on 24 Nov is 14:26 IST on 23 Jan.
    expect(scheduleProblem('2027-01-23T14:26', NOW)).toBeNull();
    expect(scheduleProblem('2027-01-23T14:27', NOW)).toBe(fillMessage(messages.schedule.tooFar, { days: SCHEDULE_MAX_DAYS }));
    expect(scheduleProblem('2027-01-23T14:27', NOW)).toContain('60 days');
  });

  it('refuses an unreadable time', () => {
    expect(scheduleProblem('', NOW)).toBe(messages.schedule.invalidTime);
    expect(scheduleProblem('tomorrow', NOW)).toBe(messages.schedule.invalidTime);
  });

  it('does not depend on the machine zone: the same choice is the same instant', () => {
    const iso = istLocalToIso('2026-11-24T15:26');
    expect(iso).toMatch(/\+05:30$/);
    expect(Date.parse(iso ?? '') - NOW.getTime()).toBe(60 * 60_000);
  });
});

describe('resolveSchedule', () => {
  it('sends now without a scheduledAt', () => {
    expect(resolveSchedule(SEND_NOW, NOW)).toEqual({ ok: true, scheduledAt: undefined });
    expect(resolveSchedule({ mode: 'now', local: 'garbage' }, NOW)).toEqual({ ok: true, scheduledAt: undefined });
  });

  it('schedules with the ISO time, or says why not', () => {
    expect(resolveSchedule({ mode: 'later', local: '2026-11-25T10:30' }, NOW)).toEqual({ ok: true, scheduledAt: '2026-11-25T10:30:00+05:30' });
    expect(resolveSchedule({ mode: 'later', local: '' }, NOW)).toEqual({ ok: false, problem: messages.schedule.invalidTime });
    expect(resolveSchedule({ mode: 'later', local: '2026-11-24T14:00' }, NOW)).toEqual({ ok: false, problem: messages.schedule.tooSoon });
  });
});

describe('the input bounds and default', () => {
  it('bounds the picker to whole minutes inside the rules', () => {
    const now = new Date('2026-11-24T08:56:30.000Z');
    const { min, max } = scheduleBounds(now);
    expect(min).toBe('2026-11-24T14:28');
    expect(max).toBe('2027-01-23T14:26');
    expect(scheduleProblem(min, now)).toBeNull();
    expect(scheduleProblem(max, now)).toBeNull();
  });

  it('offers an hour ahead on the next quarter hour', () => {
    expect(defaultScheduleLocal(NOW)).toBe('2026-11-24T15:30');
    expect(defaultScheduleLocal(new Date('2026-11-24T08:45:00.000Z'))).toBe('2026-11-24T15:15');
    expect(scheduleProblem(defaultScheduleLocal(NOW), NOW)).toBeNull();
  });
});

describe('formatting in IST', () => {
  it('writes a day, a 12-hour time and the zone', () => {
    expect(formatIstTime('2026-11-25T05:00:00.000Z')).toBe('25 Nov 2026, 10:30 am');
    expect(formatIstLabel('2026-11-25T05:00:00.000Z')).toBe('25 Nov 2026, 10:30 am IST');
    expect(formatIstLabel('2026-03-05T09:35:00+05:30')).toBe('5 Mar 2026, 9:35 am IST');
  });

  it('writes noon and midnight as 12', () => {
    expect(formatIstTime('2026-11-25T12:00:00+05:30')).toBe('25 Nov 2026, 12:00 pm');
    expect(formatIstTime('2026-11-25T00:05:00+05:30')).toBe('25 Nov 2026, 12:05 am');
    expect(formatIstTime('2026-11-25T23:59:00+05:30')).toBe('25 Nov 2026, 11:59 pm');
  });

  it('shows a dash for nothing readable', () => {
    expect(formatIstTime(null)).toBe('—');
    expect(formatIstLabel('nope')).toBe('—');
    expect(formatIstLocal('2026-02-30T10:00')).toBe('');
    expect(formatIstLocal('2026-11-25T10:30')).toBe('25 Nov 2026, 10:30 am IST');
  });

  it('fills the accepted text with an Indian-grouped count and the IST time', () => {
    expect(scheduledAcceptedText(125000, '2026-11-25T10:30:00+05:30')).toBe(
      fillMessage(messages.schedule.accepted, { count: '1,25,000', time: '25 Nov 2026, 10:30 am' }),
    );
  });
});

describe('the send button and notice of a scheduled send', () => {
  it('says it schedules, with an Indian-grouped count', () => {
    expect(scheduledSendLabel(125000)).toBe(`${messages.sendScreens.scheduleSend} (1,25,000)`);
  });

  it('says when it goes out in IST, or nothing for an unreadable time', () => {
    expect(scheduledNotice('2026-11-25T10:30')).toBe(fillMessage(messages.sendScreens.scheduledFor, { time: '25 Nov 2026, 10:30 am IST' }));
    expect(scheduledNotice('')).toBe('');
  });
});
