import { messages } from '@shared/messages';

export type DayPart = 'morning' | 'afternoon' | 'evening';

/** Spec 002: morning before 12:00, afternoon before 17:00, otherwise evening. */
export function dayPart(hour: number): DayPart {
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  return 'evening';
}

const greetings: Record<DayPart, string> = {
  morning: messages.app.greetingMorning,
  afternoon: messages.app.greetingAfternoon,
  evening: messages.app.greetingEvening,
};

export function greeting(hour: number, name?: string | null): string {
  const base = greetings[dayPart(hour)];
  const trimmed = name?.trim();
  return trimmed ? `${base}, ${trimmed}` : base;
}
