/**
 * When a send may be scheduled (issue 15). The app asks for at least a minute ahead (a person
 * picks a time on a form; anything sooner is a send now with extra steps); the API takes any
 * future time (an integrator's clock decides). Neither may reserve the balance for longer than
 * SCHEDULE_MAX_DAYS.
 */
import { fillMessage, messages } from '@shared/messages';
import { SCHEDULE_MAX_DAYS, SCHEDULE_MIN_LEAD_MS } from '@shared/schemas/sending';
import { BadRequestError } from '../errors';

export type ScheduleAsker = 'app' | 'api';

/** Answers the time, or throws the 400 whose text says what is wrong with it. */
export function checkScheduleTime(at: Date, asker: ScheduleAsker, now: Date = new Date(), field = asker === 'api' ? 'scheduled_at' : 'scheduledAt'): Date {
  const ahead = at.getTime() - now.getTime();
  if (asker === 'app' && ahead < SCHEDULE_MIN_LEAD_MS) throw BadRequestError('schedule_too_soon', messages.schedule.tooSoon, field);
  if (asker === 'api' && ahead <= 0) throw BadRequestError('schedule_in_past', messages.schedule.notInFuture, field);
  if (ahead > SCHEDULE_MAX_DAYS * 86_400_000) throw BadRequestError('schedule_too_far', fillMessage(messages.schedule.tooFar, { days: SCHEDULE_MAX_DAYS }), field);
  return at;
}
