import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { fillMessage, messages } from '@shared/messages';
import type { TReportSender } from '@shared/schemas/reports';
import { REPORT_STATUS_OPTIONS, reportChips, type ReportFilterKey, type ReportFilters } from '../../lib/reports';
import { Button } from '../ui/button';
import { FieldShell } from '../ui/form-field';
import { Input } from '../ui/input';
import { NativeSelect } from '../ui/native-select';

const r = messages.reportsScreen;

/** Typing a number is committed after this pause, so that each key press does not ask the server. */
const RECIPIENT_DEBOUNCE_MS = 400;

/**
 * The five filters of Manage Reports (spec 002), the sender among the account's members when
 * there is more than one, and their removable chips with Clear All. The recipient field keeps
 * its own text while typing and commits it after a pause or on Enter.
 */
export function ReportFilterBar({
  filters,
  templates,
  senders = [],
  onChange,
  onRemove,
  onClearAll,
}: {
  filters: ReportFilters;
  /** Template names the user's messages used. */
  templates: readonly string[];
  /** The account's members; the sender filter shows only when there are several. */
  senders?: readonly TReportSender[];
  onChange: (key: ReportFilterKey, value: string) => void;
  onRemove: (key: ReportFilterKey) => void;
  onClearAll: () => void;
}) {
  const committedRecipient = filters.recipientNumber;
  const [recipientDraft, setRecipientDraft] = useState(committedRecipient);
  const [seenRecipient, setSeenRecipient] = useState(committedRecipient);
  const timer = useRef<number | undefined>(undefined);

  // The filter changed from outside (a chip, Clear All, the address): the field follows it,
  // unless it only lost the spaces around what is being typed.
  if (committedRecipient !== seenRecipient) {
    setSeenRecipient(committedRecipient);
    if (recipientDraft.trim() !== committedRecipient) setRecipientDraft(committedRecipient);
  }

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const cancelPendingRecipient = () => window.clearTimeout(timer.current);

  const commitRecipient = (value: string) => {
    cancelPendingRecipient();
    if (value.trim() !== committedRecipient) onChange('recipientNumber', value.trim());
  };

  const handleRecipientChange = (value: string) => {
    setRecipientDraft(value);
    cancelPendingRecipient();
    timer.current = window.setTimeout(() => commitRecipient(value), RECIPIENT_DEBOUNCE_MS);
  };

  const handleRemove = (key: ReportFilterKey) => {
    if (key === 'recipientNumber') cancelPendingRecipient();
    onRemove(key);
  };

  const handleClearAll = () => {
    cancelPendingRecipient();
    onClearAll();
  };

  const senderNames = new Map(senders.map((sender) => [String(sender.userId), sender.name]));
  const chips = reportChips(filters, senderNames);
  // A chosen sender stays choosable (an address kept from before) even when the list lacks it.
  const showSenders = senders.length > 1 || filters.sentBy !== 'all';
  const templateOptions = filters.template !== 'all' && !templates.includes(filters.template) ? [filters.template, ...templates] : templates;

  return (
    <div className="flex flex-col gap-4">
      <div className={showSenders ? 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6' : 'grid gap-3 sm:grid-cols-2 lg:grid-cols-5'}>
        <FieldShell id="report-date-from" label="From Date">
          <Input
            id="report-date-from"
            type="date"
            value={filters.dateFrom}
            max={filters.dateTo || undefined}
            onChange={(event) => onChange('dateFrom', event.target.value)}
            className="dark:[color-scheme:dark]"
          />
        </FieldShell>
        <FieldShell id="report-date-to" label="To Date">
          <Input
            id="report-date-to"
            type="date"
            value={filters.dateTo}
            min={filters.dateFrom || undefined}
            onChange={(event) => onChange('dateTo', event.target.value)}
            className="dark:[color-scheme:dark]"
          />
        </FieldShell>
        <FieldShell id="report-recipient" label="Recipient Number">
          <Input
            id="report-recipient"
            type="search"
            inputMode="tel"
            autoComplete="off"
            placeholder="Any part of the number, e.g. 98765"
            value={recipientDraft}
            onChange={(event) => handleRecipientChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commitRecipient(recipientDraft);
            }}
            onBlur={() => commitRecipient(recipientDraft)}
          />
        </FieldShell>
        <FieldShell id="report-template" label="Template">
          <NativeSelect id="report-template" value={filters.template} onChange={(event) => onChange('template', event.target.value)}>
            <option value="all">All templates</option>
            {templateOptions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <FieldShell id="report-status" label="Status">
          <NativeSelect id="report-status" value={filters.status} onChange={(event) => onChange('status', event.target.value)}>
            {REPORT_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        {showSenders ? (
          <FieldShell id="report-sent-by" label={r.senderFilter}>
            <NativeSelect id="report-sent-by" value={filters.sentBy} onChange={(event) => onChange('sentBy', event.target.value)}>
              <option value="all">{r.allSenders}</option>
              {filters.sentBy !== 'all' && !senderNames.has(filters.sentBy) ? <option value={filters.sentBy}>{`#${filters.sentBy}`}</option> : null}
              {senders.map((sender) => (
                <option key={sender.userId} value={String(sender.userId)}>
                  {sender.name}
                </option>
              ))}
            </NativeSelect>
          </FieldShell>
        ) : null}
      </div>

      {chips.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2" aria-label="Active filters" role="group" data-testid="filter-chips">
          {chips.map((chip) => (
            <span
              key={chip.key}
              data-testid="filter-chip"
              className="inline-flex items-center gap-1 rounded-full border border-emerald-200 bg-emerald-50 py-0.5 pr-1 pl-3 text-xs font-medium text-emerald-800 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-300"
            >
              {chip.label}
              <button
                type="button"
                onClick={() => handleRemove(chip.key)}
                aria-label={fillMessage(r.removeFilter, { label: chip.label })}
                className="flex size-5 items-center justify-center rounded-full hover:bg-emerald-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 dark:hover:bg-emerald-500/20"
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </span>
          ))}
          <Button variant="ghost" size="sm" onClick={handleClearAll}>
            {r.clearAll}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
