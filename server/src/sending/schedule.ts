/** When a send may be scheduled: the shared rule (`scheduleTimeProblem`) as the server's 400. */
import { scheduleTimeProblem } from '@shared/schemas/sending';
import { BadRequestError } from '../errors';

export type ScheduleAsker = 'app' | 'api';

/** Answers the time, or throws the 400 whose text says what is wrong with it. */
export function checkScheduleTime(at: Date, asker: ScheduleAsker, now: Date = new Date(), field = asker === 'api' ? 'scheduled_at' : 'scheduledAt'): Date {
  const problem = scheduleTimeProblem(at.getTime(), asker, now.getTime());
  if (problem) throw BadRequestError(problem.code, problem.message, field);
  return at;
}
