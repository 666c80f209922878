/**
 * Scheduled sends without React: the time a user picks is India Standard Time whatever
 * the machine's own zone, travels as an ISO string with its +05:30 offset, and is checked with the
 * server's rules (at least `SCHEDULE_MIN_LEAD_MS` and at most `SCHEDULE_MAX_DAYS` ahead) and texts.
 *
 * IST has had no daylight saving since 1945, so a fixed offset is exact and no time-zone data is
 * needed (Electron and browsers differ in the ICU data they ship).
 */
import { fillMessage, messages } from '@shared/messages';
import { formatIstTime } from '@shared/istTime';
import { formatIndianNumber } from '@shared/money';
import { z } from 'zod';
import { SCHEDULE_MAX_DAYS, SCHEDULE_MIN_LEAD_MS, ZRescheduleRequest, scheduleTimeProblem } from '@shared/schemas/sending';

export { SCHEDULE_MAX_DAYS, SCHEDULE_MIN_LEAD_MS, formatIstTime };

export const IST_OFFSET = '+05:30';
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** "Send now" or "Schedule for later". */
export type ScheduleMode = 'now' | 'later';

/** What the schedule control holds: the mode and the IST wall-clock time, "2026-11-25T10:30". */
export interface ScheduleChoice {
  mode: ScheduleMode;
  /** IST, in the form a `datetime-local` input uses; '' when not chosen. */
  local: string;
}

export const SEND_NOW: ScheduleChoice = { mode: 'now', local: '' };

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** An instant as the IST wall-clock time a `datetime-local` input shows ("2026-11-25T10:30"); '' if unreadable. */
export function toIstLocal(value: Date | string | number): string {
  const ms = toDate(value).getTime();
  if (!Number.isFinite(ms)) return '';
  const ist = new Date(ms + IST_OFFSET_MS);
  return `${ist.getUTCFullYear()}-${pad(ist.getUTCMonth() + 1)}-${pad(ist.getUTCDate())}T${pad(ist.getUTCHours())}:${pad(ist.getUTCMinutes())}`;
}

/** The instant an IST wall-clock time stands for (ms), or null when it is not a real date and time. */
export function istLocalToMs(local: string): number | null {
  const match = LOCAL_PATTERN.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  // Date.UTC rolls 30 February over to March: such a date was never real.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute) {
    return null;
  }
  return wall - IST_OFFSET_MS;
}

/** An IST wall-clock time as the ISO string the server takes ("2026-11-25T10:30:00+05:30"), or null. */
export function istLocalToIso(local: string): string | null {
  const ms = istLocalToMs(local);
  if (ms === null) return null;
  return `${toIstLocal(ms)}:${pad(new Date(ms + IST_OFFSET_MS).getUTCSeconds())}${IST_OFFSET}`;
}

/**
 * What is wrong with a chosen IST time, in the server's words (messages.schedule), or null when it
 * is at least a minute and at most SCHEDULE_MAX_DAYS days after `now`.
 */
export function scheduleProblem(local: string, now: Date = new Date()): string | null {
  const ms = istLocalToMs(local);
  if (ms === null) return messages.schedule.invalidTime;
  return scheduleTimeProblem(ms, 'app', now.getTime())?.message ?? null;
}

export type ScheduleResult = { ok: true; scheduledAt: string | undefined } | { ok: false; problem: string };

/** The `scheduledAt` of a send: undefined to send now, the ISO time, or why the chosen time is refused. */
export function resolveSchedule(choice: ScheduleChoice, now: Date = new Date()): ScheduleResult {
  if (choice.mode === 'now') return { ok: true, scheduledAt: undefined };
  const problem = scheduleProblem(choice.local, now);
  const iso = istLocalToIso(choice.local);
  if (problem !== null || iso === null) return { ok: false, problem: problem ?? messages.schedule.invalidTime };
  return { ok: true, scheduledAt: iso };
}

/**
 * The `min` and `max` of the date-time input (IST, whole minutes): the first minute that passes the
 * one-minute rule and the last one within SCHEDULE_MAX_DAYS. The browser's picker keeps to them;
 * `scheduleProblem` still has the last word.
 */
export function scheduleBounds(now: Date = new Date()): { min: string; max: string } {
  const earliest = Math.ceil((now.getTime() + SCHEDULE_MIN_LEAD_MS) / MINUTE_MS) * MINUTE_MS;
  const latest = Math.floor((now.getTime() + SCHEDULE_MAX_DAYS * DAY_MS) / MINUTE_MS) * MINUTE_MS;
  return { min: toIstLocal(earliest), max: toIstLocal(latest) };
}

/** The time offered when the user switches to "Schedule for later": an hour ahead, on the next quarter hour. */
export function defaultScheduleLocal(now: Date = new Date()): string {
  const quarter = 15 * MINUTE_MS;
  return toIstLocal(Math.ceil((now.getTime() + 60 * MINUTE_MS) / quarter) * quarter);
}

/** An instant in IST with the zone's name: "25 Nov 2026, 10:30 am IST". */
export function formatIstLabel(value: Date | string | number | null | undefined): string {
  const time = formatIstTime(value);
  return time === '—' ? time : `${time} IST`;
}

/** The chosen IST wall-clock time as "25 Nov 2026, 10:30 am IST", or '' when it is not a real time. */
export function formatIstLocal(local: string): string {
  const ms = istLocalToMs(local);
  return ms === null ? '' : formatIstLabel(ms);
}

/** The answer to a scheduled send (messages.schedule.accepted): its count and time in IST. */
export function scheduledAcceptedText(count: number, scheduledAt: string): string {
  return fillMessage(messages.schedule.accepted, { count: formatIndianNumber(count), time: formatIstTime(scheduledAt) });
}

/** The send button of a scheduled send: "Schedule Send (1,250)". */
export function scheduledSendLabel(count: number): string {
  return `${messages.sendScreens.scheduleSend} (${formatIndianNumber(count)})`;
}

/** The note beside the send button and in the confirmation: when it goes out, and the reserved cost. */
export function scheduledNotice(local: string): string {
  const time = formatIstLocal(local);
  return time ? fillMessage(messages.sendScreens.scheduledFor, { time }) : '';
}

/**
 * The Edit time form: the IST time chosen in the schedule control, checked with the send screens'
 * rules (how far ahead) and then with the shared `ZRescheduleRequest` the server runs on the
 * same request. Its output is the ISO time the request carries.
 */
export function rescheduleFormSchema(now: () => Date = () => new Date()) {
  return z.object({ schedule: z.object({ mode: z.enum(['now', 'later']), local: z.string() }) }).transform((form, context) => {
    const timing = resolveSchedule({ ...form.schedule, mode: 'later' }, now());
    const scheduledAt = timing.ok ? timing.scheduledAt : undefined;
    const checked = ZRescheduleRequest.safeParse({ scheduledAt });
    if (!timing.ok || scheduledAt === undefined || !checked.success) {
      context.addIssue({ code: 'custom', path: ['schedule'], message: timing.ok ? messages.schedule.invalidTime : timing.problem });
      return z.NEVER;
    }
    return { scheduledAt };
  });
}
export type TRescheduleForm = z.input<ReturnType<typeof rescheduleFormSchema>>;
