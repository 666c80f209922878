import { RefreshCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { TEMPLATE_CATEGORY_LABELS, TEMPLATE_LANGUAGES, type TemplateCategory } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { fillMessage, messages } from '@shared/messages';
import { toApiError } from '../../api/client';
import { useSendLanguages, useSendTemplates, useSenderNumbers } from '../../hooks/useSending';
import { cn } from '../../lib/cn';
import { languagesLoadError, numbersLoadError, templateDisplayName, templatesLoadError } from '../../lib/sending/setup';
import { QualityBadge, qualityText } from '../templates/TemplateQuality';
import { Alert, RetryAlert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { FieldShell } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { StoppedNumberNotice } from './StoppedNumberNotice';

const ui = messages.sendScreens;

/** Shows a failed load once per failure (not on every render). */
function useFailureToast(failedAt: number, isError: boolean, show: () => void) {
  const shown = useRef(0);
  useEffect(() => {
    if (!isError || failedAt === 0 || shown.current === failedAt) return;
    shown.current = failedAt;
    show();
  }, [failedAt, isError, show]);
}

export interface SenderSetupProps {
  /** Which screen: the two word their connection errors differently (spec 002 §8). */
  screen: 'quick' | 'customize';
  idPrefix: string;
  numberId: string;
  onNumberChange: (phoneNumberId: string) => void;
  language: string;
  onLanguageChange: (language: string) => void;
  templateName: string;
  onTemplateChange: (template: TTemplate | null) => void;
  disabled?: boolean;
}

/** WhatsApp number, language and template (with Refresh): the first steps of both send screens. */
export function SenderSetupFields({
  screen,
  idPrefix,
  numberId,
  onNumberChange,
  language,
  onLanguageChange,
  templateName,
  onTemplateChange,
  disabled = false,
}: SenderSetupProps) {
  const numbers = useSenderNumbers();
  const languages = useSendLanguages();
  const templates = useSendTemplates(language);

  // The only number is chosen for the user once; after a reset the choice is theirs again.
  const autoChosen = useRef(false);
  useEffect(() => {
    if (autoChosen.current || !numbers.data) return;
    autoChosen.current = true;
    const only = numbers.data.length === 1 ? numbers.data[0] : undefined;
    if (only && numberId === '') onNumberChange(only.phone_number_id);
  }, [numbers.data, numberId, onNumberChange]);

  // A refresh may drop the chosen template (no longer approved): the choice goes with it.
  useEffect(() => {
    if (!templates.data || templateName === '') return;
    if (!templates.data.some((template) => template.name === templateName)) onTemplateChange(null);
  }, [templates.data, templateName, onTemplateChange]);

  useFailureToast(languages.errorUpdatedAt, languages.isError, () => {
    toast.error(languagesLoadError(toApiError(languages.error)));
  });
  useFailureToast(templates.errorUpdatedAt, templates.isError, () => {
    const { title, description } = templatesLoadError(toApiError(templates.error));
    toast.error(title, description ? { description } : undefined);
  });

  // Without the server's list the languages templates can be created in still work.
  const languageOptions = languages.data ?? (languages.isError ? TEMPLATE_LANGUAGES : []);
  const templateList = templates.data ?? [];
  const chosen = templateList.find((template) => template.name === templateName) ?? null;
  const numbersError = numbers.isError ? numbersLoadError(toApiError(numbers.error), screen) : '';

  return (
    <div className="flex flex-col gap-4">
      {numbersError ? (
        <RetryAlert message={numbersError} onRetry={() => void numbers.refetch()} busy={numbers.isFetching} />
      ) : null}
      {numbers.data && numbers.data.length === 0 ? <Alert tone="warning">{ui.noNumbers}</Alert> : null}
      {(numbers.data ?? []).map((number) => (number.sending_stopped ? <StoppedNumberNotice key={number.id} number={number} /> : null))}

      <div className="grid gap-4 sm:grid-cols-2">
        <FieldShell id={`${idPrefix}-number`} label="WhatsApp Number">
          <NativeSelect
            id={`${idPrefix}-number`}
            value={numberId}
            disabled={disabled || numbers.isPending}
            onChange={(event) => onNumberChange(event.target.value)}
          >
            <option value="">{numbers.isPending ? messages.common.loading : 'Select a number'}</option>
            {(numbers.data ?? []).map((number) => (
              <option key={number.id} value={number.phone_number_id}>
                {number.label} ({number.display_number}){number.is_sandbox ? ' · Sandbox' : ''}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>

        <FieldShell id={`${idPrefix}-language`} label="Language">
          <NativeSelect
            id={`${idPrefix}-language`}
            value={language}
            disabled={disabled}
            onChange={(event) => onLanguageChange(event.target.value)}
          >
            {languageOptions.some((option) => option.code === language) ? null : <option value={language}>{language}</option>}
            {languageOptions.map((option) => (
              <option key={option.code} value={option.code}>
                {option.name} ({option.code})
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
      </div>

      <FieldShell
        id={`${idPrefix}-template`}
        label="Template"
        hint={!templates.isPending && !templates.isError && templateList.length === 0 ? ui.noTemplates : undefined}
      >
        <div className="flex gap-2">
          <div className="min-w-0 flex-1">
            <NativeSelect
              id={`${idPrefix}-template`}
              value={chosen ? chosen.name : ''}
              disabled={disabled || templates.isPending}
              onChange={(event) => onTemplateChange(templateList.find((template) => template.name === event.target.value) ?? null)}
            >
              <option value="">{templates.isPending ? messages.common.loading : 'Select a template'}</option>
              {templateList.map((template) => (
                <option key={template.id} value={template.name}>
                  {template.qualityRating ? `${templateDisplayName(template.name)} (${fillMessage(messages.templateQuality.rated, { quality: qualityText(template.qualityRating) })})` : templateDisplayName(template.name)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button variant="outline" onClick={() => void templates.refetch()} disabled={disabled || templates.isFetching}>
            <RefreshCw className={cn(templates.isFetching && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
            Refresh
          </Button>
        </div>
      </FieldShell>
      {chosen ? (
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
          <Badge variant="outline">{TEMPLATE_CATEGORY_LABELS[chosen.category as TemplateCategory] ?? chosen.category}</Badge>
          <QualityBadge value={chosen.qualityRating} />
          <span className="font-mono break-all">{chosen.name}</span>
        </p>
      ) : null}
    </div>
  );
}
