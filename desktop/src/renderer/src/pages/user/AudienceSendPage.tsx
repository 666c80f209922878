import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber, formatRupees, unitsToRupees } from '@shared/money';
import type { TAudiencePreview, TAudienceSendRequest } from '@shared/schemas/contacts';
import { DEFAULT_TEMPLATE_LANGUAGE } from '@shared/templates';
import { errorText } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useSenderNumbers, useSendLanguages, useSendTemplates } from '../../hooks/useSending';
import { splitTags } from '../../lib/contacts/contactImport';

const s = messages.contactScreens;
const FIXED = '';

/** One template variable's source: a fixed text, the contact's name, or one of its attributes, with a fallback. */
function VariableRow({
  variable,
  attributes,
  source,
  text,
  fallback,
  onChange,
}: {
  variable: string;
  attributes: readonly string[];
  source: string;
  text: string;
  fallback: string;
  onChange(change: { source?: string; text?: string; fallback?: string }): void;
}) {
  const sourceId = useId();
  const label = `{{${variable}}}`;
  return (
    <div className="grid gap-2 sm:grid-cols-3 sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor={sourceId}>{fillMessage(s.variableSourceLabel, { variable: label })}</Label>
        <NativeSelect id={sourceId} value={source} onChange={(e) => onChange({ source: e.target.value })}>
          <option value={FIXED}>{s.variableFixed}</option>
          <option value="attr:name">{s.variableFromName}</option>
          {attributes.map((name) => (
            <option key={name} value={`attr:${name}`}>
              {fillMessage(s.variableFromAttribute, { name })}
            </option>
          ))}
        </NativeSelect>
      </div>
      {source === FIXED ? (
        <Input aria-label={fillMessage(s.fixedTextLabel, { variable: label })} value={text} onChange={(e) => onChange({ text: e.target.value })} />
      ) : (
        <div className="grid gap-1">
          <Input aria-label={fillMessage(s.fallbackLabel, { variable: label })} placeholder={s.fallbackHint} value={fallback} onChange={(e) => onChange({ fallback: e.target.value })} />
        </div>
      )}
    </div>
  );
}

/** /user/contacts/send: a template to a segment or to tagged contacts, variables from attributes, previewed then sent. */
export function AudienceSendPage() {
  const queryClient = useQueryClient();
  const invalidateCredits = useInvalidateCredits();
  const [params] = useSearchParams();
  const ids = { segment: useId(), tags: useId(), language: useId(), template: useId(), number: useId(), name: useId() };
  const [audience, setAudience] = useState<'segment' | 'tags'>(params.get('tags') ? 'tags' : 'segment');
  const [segmentId, setSegmentId] = useState(params.get('segment') ?? '');
  const [tags, setTags] = useState(params.get('tags') ?? '');
  const [language, setLanguage] = useState<string>(DEFAULT_TEMPLATE_LANGUAGE);
  const [templateName, setTemplateName] = useState('');
  const [numberId, setNumberId] = useState('');
  const [campaignName, setCampaignName] = useState('');
  const [sources, setSources] = useState<Record<string, { source: string; text: string; fallback: string }>>({});
  const [preview, setPreview] = useState<TAudiencePreview | null>(null);
  const segments = useQuery({ queryKey: contactKeys.segments, queryFn: contactsApi.segments });
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const languages = useSendLanguages();
  const templates = useSendTemplates(language);
  const numbers = useSenderNumbers();
  const template = (templates.data ?? []).find((t) => t.name === templateName) ?? null;
  const variables = template?.variables ?? [];

  const request = (): TAudienceSendRequest => {
    const mapped: Record<string, string> = {};
    const fallbacks: Record<string, string> = {};
    for (const variable of variables) {
      const entry = sources[variable] ?? { source: FIXED, text: '', fallback: '' };
      mapped[variable] = entry.source === FIXED ? entry.text : entry.source;
      if (entry.source !== FIXED && entry.fallback.trim() !== '') fallbacks[variable] = entry.fallback.trim();
    }
    return {
      templatename: templateName,
      language,
      ...(numberId ? { phone_number_id: numberId } : {}),
      ...(campaignName.trim() ? { campaign_name: campaignName.trim() } : {}),
      ...(audience === 'segment' ? { segment_id: Number(segmentId) } : { tags: splitTags(tags) }),
      variables: mapped,
      fallbacks,
    };
  };
  const previewCall = useMutation({
    mutationFn: () => contactsApi.previewAudienceSend(request()),
    onSuccess: setPreview,
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const send = useMutation({
    mutationFn: () => contactsApi.audienceSend(request()),
    onSuccess: (data) => {
      toast.success(fillMessage(s.sent, { count: formatIndianNumber(data.accepted), opted_out: formatIndianNumber(data.optedOutExcluded ?? 0) }));
      setPreview(null);
      invalidateCredits();
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const change = (variable: string, patch: { source?: string; text?: string; fallback?: string }) => {
    setPreview(null);
    setSources((current) => ({ ...current, [variable]: { ...(current[variable] ?? { source: FIXED, text: '', fallback: '' }), ...patch } }));
  };
  const ready = templateName !== '' && (audience === 'segment' ? segmentId !== '' : splitTags(tags).length > 0);
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    setPreview(null);
    set(value);
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{s.sendTitle}</h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{s.sendIntro}</p>
      </div>
      <Card>
        <CardContent className="grid gap-5 pt-6">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">{s.audienceLabel}</legend>
            <div className="flex flex-wrap gap-4">
              {(['segment', 'tags'] as const).map((kind) => (
                <label key={kind} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="audience" value={kind} checked={audience === kind} onChange={() => edited(setAudience)(kind)} />
                  {kind === 'segment' ? s.audienceSegment : s.audienceTags}
                </label>
              ))}
            </div>
            {audience === 'segment' ? (
              <div className="grid max-w-md gap-1.5">
                <Label htmlFor={ids.segment}>{s.segmentFilterLabel}</Label>
                <NativeSelect id={ids.segment} value={segmentId} onChange={(e) => edited(setSegmentId)(e.target.value)}>
                  <option value="">{s.chooseSegment}</option>
                  {(segments.data ?? []).map((segment) => (
                    <option key={segment.id} value={segment.id}>
                      {segment.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ) : (
              <div className="grid max-w-md gap-1.5">
                <Label htmlFor={ids.tags}>{s.tagsLabel}</Label>
                <Input id={ids.tags} value={tags} onChange={(e) => edited(setTags)(e.target.value)} />
                <p className="text-xs text-slate-500 dark:text-slate-400">{s.tagsHint}</p>
              </div>
            )}
          </fieldset>

          <div className="grid gap-3 sm:grid-cols-3">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.language}>{s.languageLabel}</Label>
              <NativeSelect id={ids.language} value={language} onChange={(e) => edited(setLanguage)(e.target.value)}>
                {(languages.data ?? [{ code: DEFAULT_TEMPLATE_LANGUAGE, name: DEFAULT_TEMPLATE_LANGUAGE }]).map((l) => (
                  <option key={l.code} value={l.code}>
                    {l.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.template}>{s.templateLabel}</Label>
              <NativeSelect id={ids.template} value={templateName} onChange={(e) => edited(setTemplateName)(e.target.value)}>
                <option value="">{s.chooseTemplate}</option>
                {(templates.data ?? []).map((t) => (
                  <option key={t.id} value={t.name}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.number}>{s.numberLabel}</Label>
              <NativeSelect id={ids.number} value={numberId} onChange={(e) => edited(setNumberId)(e.target.value)}>
                <option value="">{s.defaultNumber}</option>
                {(numbers.data ?? []).map((n) => (
                  <option key={n.id} value={n.phone_number_id}>
                    {n.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>

          {variables.length > 0 ? (
            <fieldset className="grid gap-3">
              <legend className="mb-1 text-sm font-semibold">{s.variablesTitle}</legend>
              {variables.map((variable) => {
                const entry = sources[variable] ?? { source: FIXED, text: '', fallback: '' };
                return (
                  <VariableRow
                    key={variable}
                    variable={variable}
                    attributes={(attributes.data ?? []).map((a) => a.name)}
                    source={entry.source}
                    text={entry.text}
                    fallback={entry.fallback}
                    onChange={(patch) => change(variable, patch)}
                  />
                );
              })}
            </fieldset>
          ) : null}

          <div className="grid max-w-md gap-1.5">
            <Label htmlFor={ids.name}>{s.campaignNameLabel}</Label>
            <Input id={ids.name} value={campaignName} maxLength={200} onChange={(e) => setCampaignName(e.target.value)} />
          </div>

          <Button type="button" variant="outline" className="justify-self-start" disabled={!ready || previewCall.isPending} onClick={() => previewCall.mutate()}>
            <Eye aria-hidden="true" />
            {s.previewButton}
          </Button>
        </CardContent>
      </Card>

      {preview ? (
        <Card>
          <CardHeader>
            <CardTitle>{s.previewTitle}</CardTitle>
            {preview.sufficient ? null : <CardDescription className="text-red-600 dark:text-red-400">{s.insufficient}</CardDescription>}
          </CardHeader>
          <CardContent className="grid gap-4">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label={s.previewTitle}>
              {[
                [s.previewRecipients, formatIndianNumber(preview.recipients)],
                [s.previewOptedOut, formatIndianNumber(preview.opted_out)],
                [s.previewFallback, formatIndianNumber(preview.using_fallback)],
                [s.previewCost, formatRupees(unitsToRupees(preview.cost_units))],
                [s.previewBalance, formatRupees(unitsToRupees(preview.balance_units - preview.cost_units))],
              ].map(([term, value]) => (
                <div key={term} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
                  <dd className="text-lg font-semibold">{value}</dd>
                </div>
              ))}
            </dl>
            <Button type="button" className="justify-self-start" disabled={!preview.sufficient || preview.recipients === 0 || send.isPending} onClick={() => send.mutate()}>
              <Send aria-hidden="true" />
              {s.send}
            </Button>
          </CardContent>
        </Card>
      ) : null}
      <p className="text-sm">
        <Link to="/user/contacts" className="text-emerald-700 underline dark:text-emerald-400">
          {s.back}
        </Link>
      </p>
    </div>
  );
}
