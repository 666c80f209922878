import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Eye, Send } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Controller, type FieldErrors } from 'react-hook-form';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber, formatRupees, unitsToRupees } from '@shared/money';
import { formatPhone } from '@shared/phone';
import { AUDIENCE_TAG_MATCHES, type TAudiencePreview, type TAudienceSendRequest } from '@shared/schemas/contacts';
import type { TTemplate } from '@shared/types';
import { errorText } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import {
  AUDIENCE_CHECK_ORDER,
  AUDIENCE_KINDS,
  audienceSendFormSchema,
  EMPTY_VARIABLE_SOURCE,
  emptyAudienceForm,
  FIXED_TEXT,
  type AudienceSendContext,
  type TAudienceForm,
  type VariableSource,
} from '../../lib/contacts/audienceSendForm';
import { resolveSchedule, scheduledAcceptedText, scheduledSendLabel, type ScheduleChoice } from '../../lib/sending/schedule';
import { messageText } from '../../lib/sending/setup';
import { useSchemaForm } from '../form/useSchemaForm';
import { ScheduleControl } from '../sending/ScheduleControl';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { Spinner } from '../ui/spinner';

const s = messages.contactScreens;

/** One template variable's source: a fixed text, the contact's name, or one of its attributes, with a fallback. */
function VariableSourceRow({
  variable,
  attributes,
  value,
  disabled,
  onChange,
}: {
  variable: string;
  attributes: readonly string[];
  value: VariableSource;
  disabled: boolean;
  onChange(next: VariableSource): void;
}) {
  const sourceId = useId();
  const label = `{{${variable}}}`;
  return (
    <div className="grid gap-2 sm:grid-cols-2 sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor={sourceId}>{fillMessage(s.variableSourceLabel, { variable: label })}</Label>
        <NativeSelect id={sourceId} value={value.source} disabled={disabled} onChange={(event) => onChange({ ...value, source: event.target.value })}>
          <option value={FIXED_TEXT}>{s.variableFixed}</option>
          <option value="attr:name">{s.variableFromName}</option>
          {attributes.map((name) => (
            <option key={name} value={`attr:${name}`}>
              {fillMessage(s.variableFromAttribute, { name })}
            </option>
          ))}
        </NativeSelect>
      </div>
      {value.source === FIXED_TEXT ? (
        <Input aria-label={fillMessage(s.fixedTextLabel, { variable: label })} value={value.text} disabled={disabled} onChange={(event) => onChange({ ...value, text: event.target.value })} />
      ) : (
        <Input
          aria-label={fillMessage(s.fallbackLabel, { variable: label })}
          placeholder={s.fallbackHint}
          value={value.fallback}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, fallback: event.target.value })}
        />
      )}
    </div>
  );
}

export interface ContactsAudienceSendProps {
  idPrefix: string;
  numberId: string;
  language: string;
  template: TTemplate | null;
  /** The template's variables once its details are loaded; null while they load. */
  variables: readonly string[] | null;
  campaignName: string;
  /** The header image chosen on the screen, sent with the campaign (templates with an image header). */
  headerImage: File | null;
  /** The template has an image header and none is chosen yet: the send waits for one. */
  imageMissing: boolean;
  schedule: ScheduleChoice;
  onScheduleChange(next: ScheduleChoice): void;
  disabled?: boolean;
  /** A segment or tags to start from (links from the contact screens). */
  initial?: { segment?: string | null; tags?: string | null };
  /** Once the campaign is accepted: the screen clears what belonged to it. */
  onSent?(): void;
  /** The preview that stands for the send as it is now, or null (none asked, or an edit since): the screen's side panel shows it. */
  onPreviewChange?(preview: TAudiencePreview | null): void;
}

/**
 * The Contacts recipient source of a send screen: a segment or tagged contacts, each variable from
 * an attribute (with a fallback) or a fixed text, the server's dry run as the preview (recipients,
 * opted-out contacts left out, a sample message), then the send or its schedule.
 */
export function ContactsAudienceSend({
  idPrefix,
  numberId,
  language,
  template,
  variables,
  campaignName,
  headerImage,
  imageMissing,
  schedule,
  onScheduleChange,
  disabled = false,
  initial,
  onSent,
  onPreviewChange,
}: ContactsAudienceSendProps) {
  const queryClient = useQueryClient();
  const invalidateCredits = useInvalidateCredits();
  const ids = { segment: `${idPrefix}-audience-segment`, tags: `${idPrefix}-audience-tags`, match: `${idPrefix}-audience-match` };
  // What the page owns, as of the preview or send being checked.
  const context = useRef<AudienceSendContext>({ templateName: '', language, numberId: '', campaignName: '', variables: [] });
  const form = useSchemaForm(
    // eslint-disable-next-line react-hooks/refs -- the getter is called when a preview or send is checked (an event), never while rendering
    useMemo(() => audienceSendFormSchema(() => context.current), []),
    emptyAudienceForm(initial),
  );
  const { control, register } = form;
  const fields = form.watch();
  const segments = useQuery({ queryKey: contactKeys.segments, queryFn: contactsApi.segments });
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const attributeNames = (attributes.data ?? []).map((attribute) => attribute.name);

  // A preview stands for the very send it was asked for: any later edit asks for a new one.
  const signature = JSON.stringify({ fields, numberId, language, template: template?.name ?? '', variables, campaignName, schedule });
  const [preview, setPreview] = useState<{ signature: string; preview: TAudiencePreview } | null>(null);
  const current = preview?.signature === signature ? preview.preview : null;
  useEffect(() => onPreviewChange?.(current), [current, onPreviewChange]);

  const previewCall = useMutation({
    mutationFn: ({ request }: { request: TAudienceSendRequest; asked: string }) => contactsApi.previewAudienceSend(request),
    onSuccess: (answer, { asked }) => setPreview({ signature: asked, preview: answer }),
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const send = useMutation({
    mutationFn: (request: TAudienceSendRequest) => contactsApi.audienceSend(request, headerImage),
    onSuccess: (data) => {
      toast.success(
        data.scheduledAt
          ? scheduledAcceptedText(data.accepted, data.scheduledAt)
          : fillMessage(s.sent, { count: formatIndianNumber(data.accepted), opted_out: formatIndianNumber(data.optedOutExcluded ?? 0) }),
      );
      setPreview(null);
      invalidateCredits();
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      onSent?.();
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const busy = disabled || previewCall.isPending || send.isPending;

  const handleInvalid = (errors: FieldErrors<TAudienceForm>) => {
    const field = AUDIENCE_CHECK_ORDER.find((name) => errors[name]);
    const message = field ? errors[field]?.message : undefined;
    toast.error(typeof message === 'string' ? message : messages.sending.missingFields);
  };

  /** Checks the fields with what the page knows now, then runs `then` with the request. */
  const runChecked = (then: (request: TAudienceSendRequest) => void) => {
    if (!template || variables === null) {
      toast.error(messages.sending.missingFields);
      return;
    }
    const timing = resolveSchedule(schedule);
    if (!timing.ok) {
      toast.error(timing.problem);
      return;
    }
    context.current = { templateName: template.name, language, numberId, campaignName, variables, scheduledAt: timing.scheduledAt };
    void form.handleSubmit(then, handleInvalid)();
  };
  const handlePreview = () => runChecked((request) => previewCall.mutate({ request, asked: signature }));
  const handleSend = () =>
    runChecked((request) => {
      if (imageMissing) {
        toast.error(messages.sending.imageRequired);
        return;
      }
      send.mutate(request);
    });

  const scheduled = schedule.mode === 'later';
  const sample = current?.sample && template ? { to: formatPhone(current.sample.phone), text: messageText(template, current.sample.values) } : null;

  return (
    <div className="flex flex-col gap-5" data-testid={`${idPrefix}-contacts-source`}>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{s.audienceLabel}</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {AUDIENCE_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-2">
              <input type="radio" {...register('audience')} value={kind} disabled={busy} className="size-4 accent-emerald-600" />
              {kind === 'segment' ? s.audienceSegment : s.audienceTags}
            </label>
          ))}
        </div>
        {fields.audience === 'segment' ? (
          <div className="grid max-w-md gap-1.5">
            <Label htmlFor={ids.segment}>{s.segmentFilterLabel}</Label>
            <NativeSelect id={ids.segment} {...register('segmentId')} disabled={busy} aria-invalid={form.formState.errors.segmentId ? true : undefined}>
              <option value="">{s.chooseSegment}</option>
              {(segments.data ?? []).map((segment) => (
                <option key={segment.id} value={String(segment.id)}>
                  {segment.name}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : (
          <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.tags}>{s.tagsLabel}</Label>
              <Input
                id={ids.tags}
                {...register('tags')}
                disabled={busy}
                aria-describedby={`${ids.tags}-hint`}
                aria-invalid={form.formState.errors.tags ? true : undefined}
                onKeyDown={(event) => {
                  // Enter previews rather than submitting the screen's own form around this block.
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    handlePreview();
                  }
                }}
              />
              <p id={`${ids.tags}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
                {s.tagsHint}
              </p>
            </div>
            <div className="grid content-start gap-1.5">
              <Label htmlFor={ids.match}>{s.tagsMatchLabel}</Label>
              <NativeSelect id={ids.match} {...register('tagsMatch')} disabled={busy}>
                {AUDIENCE_TAG_MATCHES.map((match) => (
                  <option key={match} value={match}>
                    {match === 'any' ? s.tagsMatchAny : s.tagsMatchAll}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
        )}
      </fieldset>

      {!template ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">Choose a template first.</p>
      ) : variables === null ? (
        <Spinner label="Loading template variables" />
      ) : variables.length > 0 ? (
        <Controller
          control={control}
          name="variables"
          render={({ field }) => (
            <fieldset className="grid gap-3">
              <legend className="mb-1 text-sm font-medium">{s.variablesTitle}</legend>
              {variables.map((variable) => (
                <VariableSourceRow
                  key={variable}
                  variable={variable}
                  attributes={attributeNames}
                  value={field.value[variable] ?? EMPTY_VARIABLE_SOURCE}
                  disabled={busy}
                  onChange={(next) => field.onChange({ ...field.value, [variable]: next })}
                />
              ))}
            </fieldset>
          )}
        />
      ) : null}

      <ScheduleControl idPrefix={`${idPrefix}-audience`} value={schedule} onChange={onScheduleChange} disabled={busy} />

      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" disabled={busy || !template} onClick={handlePreview} data-testid={`${idPrefix}-audience-preview`}>
          {previewCall.isPending ? <Spinner className="text-current" /> : <Eye aria-hidden="true" />}
          {s.previewButton}
        </Button>
        {preview && !current ? <p className="text-sm text-slate-500 dark:text-slate-400">{s.previewStale}</p> : null}
      </div>

      {current ? (
        <section className="grid gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800" aria-labelledby={`${idPrefix}-audience-preview-title`}>
          <h3 id={`${idPrefix}-audience-preview-title`} className="text-sm font-semibold">
            {s.previewTitle}
          </h3>
          {current.sufficient ? null : <p className="text-sm text-red-600 dark:text-red-400">{s.insufficient}</p>}
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label={s.previewTitle}>
            {[
              [s.previewRecipients, formatIndianNumber(current.recipients)],
              [s.previewOptedOut, formatIndianNumber(current.opted_out)],
              [s.previewFallback, formatIndianNumber(current.using_fallback)],
              [s.previewCost, formatRupees(unitsToRupees(current.cost_units))],
              [s.previewBalance, formatRupees(unitsToRupees(current.balance_units - current.cost_units))],
            ].map(([term, value]) => (
              <div key={term} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
                <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
                <dd className="text-lg font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          {sample ? (
            <figure className="grid gap-1" data-testid={`${idPrefix}-audience-sample`}>
              <figcaption className="text-xs text-slate-500 dark:text-slate-400">
                {s.previewSample} · {fillMessage(s.previewSampleTo, { phone: sample.to })}
              </figcaption>
              <p className="whitespace-pre-wrap rounded-md bg-emerald-50 p-3 text-sm text-slate-900 dark:bg-emerald-950/40 dark:text-slate-100">{sample.text}</p>
            </figure>
          ) : (
            <p className="text-sm text-slate-500 dark:text-slate-400">{s.previewNoRecipients}</p>
          )}
          <Button
            type="button"
            size="lg"
            className="justify-self-start"
            disabled={busy || !current.sufficient || current.recipients === 0}
            onClick={handleSend}
            data-testid={`${idPrefix}-audience-send`}
          >
            {send.isPending ? <Spinner className="text-current" /> : scheduled ? <CalendarClock aria-hidden="true" /> : <Send aria-hidden="true" />}
            {scheduled ? scheduledSendLabel(current.recipients) : s.send}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
