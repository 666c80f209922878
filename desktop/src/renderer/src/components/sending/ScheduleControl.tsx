import { CalendarClock, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { useNow } from '../../hooks/useNow';
import { cn } from '../../lib/cn';
import { defaultScheduleLocal, formatIstLocal, SCHEDULE_MAX_DAYS, scheduleBounds, scheduleProblem, type ScheduleChoice, type ScheduleMode } from '../../lib/sending/schedule';
import { FieldError, Input } from '../ui/input';
import { Label } from '../ui/label';

const ui = messages.sendScreens;

/** The bounds and the "too soon" check move on while the screen stays open. */
const CLOCK_MS = 15_000;

function ModeOption({
  name,
  id,
  mode,
  checked,
  disabled,
  icon,
  label,
  onSelect,
}: {
  name: string;
  id: string;
  mode: ScheduleMode;
  checked: boolean;
  disabled?: boolean;
  icon: ReactNode;
  label: string;
  onSelect: (mode: ScheduleMode) => void;
}) {
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium transition-colors',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-emerald-500 has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-white dark:has-[:focus-visible]:ring-offset-slate-950',
        checked
          ? 'border-emerald-500 bg-emerald-50 text-emerald-900 dark:border-emerald-400 dark:bg-emerald-500/10 dark:text-emerald-200'
          : 'border-slate-300 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800/60',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      {/* Native radios: Tab reaches the group, the arrow keys move the choice. */}
      <input
        type="radio"
        id={id}
        name={name}
        value={mode}
        checked={checked}
        disabled={disabled}
        onChange={() => onSelect(mode)}
        className="size-4 accent-emerald-600 focus-visible:outline-none"
      />
      {icon}
      {label}
    </label>
  );
}

/**
 * "Send now" or "Schedule for later" with a date and time in India Standard Time: the
 * send screens and the Edit time dialog share it. The time is checked as the server checks it,
 * and the chosen time is repeated in words, since the picker writes it the machine's way.
 */
export function ScheduleControl({
  idPrefix,
  value,
  onChange,
  disabled,
  hideModes = false,
}: {
  idPrefix: string;
  value: ScheduleChoice;
  onChange: (next: ScheduleChoice) => void;
  disabled?: boolean;
  /** Only the time (Edit time): the campaign is scheduled already. */
  hideModes?: boolean;
}) {
  const now = useNow(CLOCK_MS);
  const timeId = `${idPrefix}-schedule-time`;
  const later = value.mode === 'later';
  const bounds = scheduleBounds(now);
  const problem = later ? scheduleProblem(value.local, now) : null;
  const spoken = later ? formatIstLocal(value.local) : '';

  const handleMode = (mode: ScheduleMode) => {
    // The first switch to "later" offers a time that passes the rules: an hour ahead.
    onChange({ mode, local: mode === 'later' && value.local === '' ? defaultScheduleLocal(new Date()) : value.local });
  };

  const timeField = (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={timeId}>{ui.scheduleTimeLabel}</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={timeId}
          type="datetime-local"
          value={value.local}
          min={bounds.min}
          max={bounds.max}
          step={60}
          disabled={disabled}
          invalid={problem !== null}
          aria-describedby={`${timeId}-hint${problem ? ` ${timeId}-error` : ''}`}
          onChange={(event) => onChange({ mode: 'later', local: event.target.value })}
          className="w-auto min-w-56 dark:[color-scheme:dark]"
        />
        <span className="rounded-md bg-slate-100 px-2 py-1 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200" aria-hidden="true">
          IST
        </span>
      </div>
      {spoken && !problem ? (
        <p className="text-sm font-medium text-slate-700 dark:text-slate-200" aria-live="polite" data-testid="schedule-time-text">
          {spoken}
        </p>
      ) : null}
      <FieldError id={`${timeId}-error`} message={problem ?? undefined} />
      <p id={`${timeId}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
        {fillMessage(ui.scheduleHint, { days: SCHEDULE_MAX_DAYS })}
      </p>
    </div>
  );

  if (hideModes) return timeField;

  return (
    <fieldset className="flex flex-col gap-3" data-testid="schedule-control">
      <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">{ui.scheduleLegend}</legend>
      <div className="flex flex-wrap gap-2">
        <ModeOption
          name={`${idPrefix}-schedule-mode`}
          id={`${idPrefix}-schedule-now`}
          mode="now"
          checked={!later}
          disabled={disabled}
          icon={<Send className="size-4" aria-hidden="true" />}
          label={ui.sendNow}
          onSelect={handleMode}
        />
        <ModeOption
          name={`${idPrefix}-schedule-mode`}
          id={`${idPrefix}-schedule-later`}
          mode="later"
          checked={later}
          disabled={disabled}
          icon={<CalendarClock className="size-4" aria-hidden="true" />}
          label={ui.scheduleLater}
          onSelect={handleMode}
        />
      </div>
      {later ? timeField : null}
    </fieldset>
  );
}
