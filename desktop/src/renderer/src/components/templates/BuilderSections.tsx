import { FileText, Plus, Trash2, Upload, X } from 'lucide-react';
import { useId, type ChangeEvent, type ReactNode } from 'react';
import { TEMPLATE_LIMITS } from '@shared/constants';
import { messages } from '@shared/messages';
import { BUTTON_TYPE_LABELS, BUTTON_TYPES, HEADER_TYPES, OTP_TYPES, type HeaderType, type OtpType } from '@shared/templates';
import type { FieldErrors } from '../../lib/forms';
import { formatFileSize, HEADER_MEDIA_ACCEPT, HEADER_MEDIA_MAX_MB, isMediaHeaderType } from '../../lib/headerMedia';
import { buttonErrorField } from '../../lib/templatePayload';
import { formVariableDefinitions, keepsStoredHeader, type BuilderButtonType, type BuilderEdit, type TemplateForm } from '../../lib/templateBuilder';
import { cn } from '../../lib/cn';
import { Badge } from '../ui/badge';
import { Button, focusRing } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell, TextField } from '../ui/form-field';
import { FieldError, Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { Switch } from '../ui/switch';
import { Textarea } from '../ui/textarea';

export interface SectionProps {
  /** The form's values as they are now (watched, so each keystroke redraws). */
  form: TemplateForm;
  /** Writes an edit, and what it changes besides its own field, into the form. */
  dispatch: (edit: BuilderEdit) => void;
  /** Messages by the request's field names (`buttons.2` is the third row). */
  errors: FieldErrors;
  /** Forgets a field's error once the user edits it. */
  clearError: (field: string) => void;
  disabled: boolean;
  /** The field array's key of each button row, stable while rows above are removed. */
  rowKeys: string[];
  /** Appends a row (`optOut`: Meta's "Stop promotions" quick reply) to the field array. */
  addButton: (optOut: boolean) => void;
  removeButton: (index: number) => void;
}

const HEADER_TYPE_LABELS: Record<HeaderType, string> = {
  none: 'None',
  text: 'Text',
  image: 'Image',
  video: 'Video',
  document: 'Document',
};

const HEADER_MEDIA_HINTS = {
  image: `JPG or PNG, up to ${HEADER_MEDIA_MAX_MB.image} MB`,
  video: `MP4 or 3GP, up to ${HEADER_MEDIA_MAX_MB.video} MB`,
  document: `PDF, up to ${HEADER_MEDIA_MAX_MB.document} MB`,
} as const;

const OTP_TYPE_LABELS: Record<OtpType, string> = {
  COPY_CODE: 'Copy Code',
  ONE_TAP: 'One-Tap Autofill',
};

/** "12/60" beside a limited field; red once over. */
export function CharacterCount({ value, max, id }: { value: string; max: number; id?: string }) {
  return (
    <span
      id={id}
      className={cn('text-xs tabular-nums text-slate-500 dark:text-slate-400', value.length > max && 'text-red-600 dark:text-red-400')}
    >
      {value.length}/{max}
    </span>
  );
}

export function BuilderSection({ title, description, action, children }: { title: string; description?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <CardTitle className="text-base">{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        {action}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

export function AuthenticationSection({ form, dispatch, errors, clearError, disabled }: SectionProps) {
  const securityId = useId();
  return (
    <BuilderSection
      title="Authentication Options"
      description="WhatsApp writes the text of authentication messages: you choose how the code is delivered."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FieldShell id="template-otp-type" label="OTP Type" error={errors.otp_type}>
          <NativeSelect
            id="template-otp-type"
            value={form.otpType}
            disabled={disabled}
            invalid={Boolean(errors.otp_type)}
            onChange={(e) => {
              dispatch({ type: 'set', field: 'otpType', value: e.target.value as OtpType });
              clearError('otp_type');
            }}
          >
            {OTP_TYPES.map((type) => (
              <option key={type} value={type}>
                {OTP_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <TextField
          id="template-otp-button-text"
          label="OTP Button Text"
          placeholder={BUTTON_TYPE_LABELS.OTP}
          maxLength={TEMPLATE_LIMITS.otpButtonTextMax}
          value={form.otpButtonText}
          disabled={disabled}
          error={errors.otp_button_text}
          hint={`Up to ${TEMPLATE_LIMITS.otpButtonTextMax} characters; empty means "${BUTTON_TYPE_LABELS.OTP}".`}
          onChange={(e) => {
            dispatch({ type: 'set', field: 'otpButtonText', value: e.target.value });
            clearError('otp_button_text');
          }}
        />
        <TextField
          id="template-code-expiration"
          label="Code Expiration (minutes)"
          type="number"
          inputMode="numeric"
          min={TEMPLATE_LIMITS.codeExpiryMinutesMin}
          max={TEMPLATE_LIMITS.codeExpiryMinutesMax}
          value={form.codeExpirationMinutes}
          disabled={disabled}
          error={errors.code_expiration_minutes}
          hint={`${TEMPLATE_LIMITS.codeExpiryMinutesMin} to ${TEMPLATE_LIMITS.codeExpiryMinutesMax} minutes.`}
          onChange={(e) => {
            dispatch({ type: 'set', field: 'codeExpirationMinutes', value: e.target.value });
            clearError('code_expiration_minutes');
          }}
        />
        <div className="flex items-center gap-3 self-center">
          <Switch
            id={securityId}
            checked={form.addSecurityRecommendation}
            disabled={disabled}
            onCheckedChange={(checked) => dispatch({ type: 'set', field: 'addSecurityRecommendation', value: checked })}
          />
          <Label htmlFor={securityId}>Add Security Recommendation</Label>
        </div>
      </div>
    </BuilderSection>
  );
}

function HeaderFilePicker({
  form,
  errors,
  clearError,
  disabled,
  onFileChosen,
}: SectionProps & { onFileChosen: (file: File | null, input: HTMLInputElement | null) => void }) {
  if (!isMediaHeaderType(form.headerType)) return null;
  const headerType = form.headerType;
  const inputId = 'template-header-file';
  const error = errors.headerMedia;
  const keeping = keepsStoredHeader(form);
  const describedBy = error ? `${inputId}-error` : `${inputId}-hint`;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    clearError('headerMedia');
    onFileChosen(event.target.files?.[0] ?? null, event.target);
  };

  return (
    <FieldShell id={inputId} label="Header File" error={error} hint={HEADER_MEDIA_HINTS[headerType]}>
      {/* Keyed by type: switching types empties the native input along with the chosen file. */}
      <div key={headerType} className="flex flex-col gap-2">
        <input
          id={inputId}
          type="file"
          accept={HEADER_MEDIA_ACCEPT[headerType]}
          disabled={disabled}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy}
          onChange={handleChange}
          className={cn(
            'block w-full rounded-lg border border-dashed border-slate-300 bg-white p-2 text-sm text-slate-700',
            'file:mr-3 file:rounded-md file:border-0 file:bg-emerald-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-emerald-700',
            'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:file:bg-emerald-500/15 dark:file:text-emerald-300',
            error && 'border-red-500 dark:border-red-500',
            focusRing,
          )}
        />
        {form.headerFile ? (
          <div className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/60">
            <Upload className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            <span className="min-w-0 flex-1 truncate">
              {form.headerFile.name} <span className="text-slate-500 dark:text-slate-400">({formatFileSize(form.headerFile.size)})</span>
            </span>
            <Button variant="ghost" size="icon" className="size-7" disabled={disabled} onClick={() => onFileChosen(null, null)}>
              <X aria-hidden="true" />
              <span className="sr-only">Remove chosen file</span>
            </Button>
          </div>
        ) : keeping && form.storedHeader ? (
          <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            <FileText className="size-4 shrink-0" aria-hidden="true" />
            <span>
              Current file: <span className="font-medium">{form.storedHeader.name ?? 'header file'}</span>. It is kept unless you
              choose another.
            </span>
          </p>
        ) : null}
      </div>
    </FieldShell>
  );
}

export function HeaderSection(props: SectionProps & { onFileChosen: (file: File | null, input: HTMLInputElement | null) => void }) {
  const { form, dispatch, errors, clearError, disabled } = props;
  return (
    <BuilderSection title="Header" description="Optional: a title line, or an image, video or document above the message.">
      <FieldShell id="template-header-type" label="Header Type" error={errors.headerType}>
        <NativeSelect
          id="template-header-type"
          value={form.headerType}
          disabled={disabled}
          onChange={(e) => {
            dispatch({ type: 'setHeaderType', value: e.target.value as HeaderType });
            clearError('headerType');
            clearError('headerText');
            clearError('headerMedia');
          }}
        >
          {HEADER_TYPES.map((type) => (
            <option key={type} value={type}>
              {HEADER_TYPE_LABELS[type]}
            </option>
          ))}
        </NativeSelect>
      </FieldShell>
      {form.headerType === 'text' ? (
        <div className="flex flex-col gap-1">
          <TextField
            id="template-header-text"
            label="Header Text"
            maxLength={TEMPLATE_LIMITS.headerTextMax}
            value={form.headerText}
            disabled={disabled}
            error={errors.headerText}
            placeholder="e.g. Your order is on its way"
            onChange={(e) => {
              dispatch({ type: 'setHeaderText', value: e.target.value });
              clearError('headerText');
            }}
          />
          <div className="flex justify-end">
            <CharacterCount value={form.headerText} max={TEMPLATE_LIMITS.headerTextMax} />
          </div>
        </div>
      ) : null}
      <HeaderFilePicker {...props} />
    </BuilderSection>
  );
}

export function BodySection({ form, dispatch, errors, clearError, disabled }: SectionProps) {
  const variables = formVariableDefinitions(form);
  return (
    <BuilderSection
      title="Body"
      description={
        <>
          The message itself. Use <code>{'{{1}}'}</code>, <code>{'{{2}}'}</code>… for values filled in when sending, and *bold*,
          _italic_ or ~strikethrough~ for formatting.
        </>
      }
    >
      <FieldShell id="template-body" label="Body Text" error={errors.bodyText}>
        <Textarea
          id="template-body"
          rows={6}
          value={form.bodyText}
          disabled={disabled}
          invalid={Boolean(errors.bodyText)}
          aria-describedby={errors.bodyText ? 'template-body-error' : undefined}
          placeholder="Hi {{1}}, your order {{2}} has shipped."
          onChange={(e) => {
            dispatch({ type: 'setBodyText', value: e.target.value });
            clearError('bodyText');
          }}
        />
      </FieldShell>
      <div className="flex items-center justify-between gap-3">
        <Button
          variant="outline"
          size="sm"
          disabled={disabled}
          onClick={() => {
            dispatch({ type: 'addVariable' });
            clearError('bodyText');
          }}
        >
          <Plus aria-hidden="true" />
          Add Variable
        </Button>
        <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">{form.bodyText.length} characters</span>
      </div>
      {variables.length > 0 ? (
        <fieldset className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          <legend className="px-1 text-sm font-medium text-slate-700 dark:text-slate-200">Variable examples</legend>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Sample values WhatsApp's reviewers see in place of each variable; they also fill the preview.
          </p>
          <div className="grid gap-2">
            {variables.map((variable) => {
              // Keyed by component: the header's and a button's {{1}} have examples of their own.
              const id = `template-example-${variable.key}`;
              return (
                <div key={variable.key} className="grid grid-cols-[minmax(6rem,auto)_1fr] items-center gap-3">
                  <Label htmlFor={id} className="font-mono text-xs">
                    <span className="sr-only">Example for </span>
                    {variable.label}
                  </Label>
                  <Input
                    id={id}
                    value={form.variableExamples[variable.key] ?? ''}
                    disabled={disabled}
                    onChange={(e) => dispatch({ type: 'setExample', variable: variable.key, value: e.target.value })}
                  />
                </div>
              );
            })}
          </div>
        </fieldset>
      ) : null}
    </BuilderSection>
  );
}

export function FooterSection({ form, dispatch, errors, clearError, disabled }: SectionProps) {
  return (
    <BuilderSection title="Footer" description="Optional: a short line in grey under the message.">
      <div className="flex flex-col gap-1">
        <TextField
          id="template-footer"
          label="Footer Text"
          maxLength={TEMPLATE_LIMITS.footerTextMax}
          value={form.footerText}
          disabled={disabled}
          error={errors.footerText}
          placeholder="e.g. Reply STOP to opt out"
          onChange={(e) => {
            dispatch({ type: 'set', field: 'footerText', value: e.target.value });
            clearError('footerText');
          }}
        />
        <div className="flex justify-end">
          <CharacterCount value={form.footerText} max={TEMPLATE_LIMITS.footerTextMax} />
        </div>
      </div>
    </BuilderSection>
  );
}

function ButtonRow({ index, form, dispatch, errors, clearError, disabled, removeButton }: SectionProps & { index: number }) {
  const button = form.buttons[index];
  if (!button) return null;
  const n = index + 1;
  const error = errors[`buttons.${index}`];
  const errorField = error ? buttonErrorField(error, index) : null;
  const base = `template-button-${button.key}`;
  const errorId = `${base}-error`;
  const invalidProps = (field: string) =>
    errorField === field ? { invalid: true, 'aria-describedby': errorId } : { invalid: false };
  const update = (patch: Extract<BuilderEdit, { type: 'updateButton' }>) => {
    dispatch(patch);
    clearError(`buttons.${index}`);
  };
  const fieldLabel = (text: string) => (
    <>
      <span className="sr-only">Button {n} </span>
      {text}
    </>
  );

  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <div className="flex items-center justify-between">
        <span className="text-sm font-medium">
          Button {n}
          {button.optOut ? <Badge className="ml-2">{messages.suppressions.optOutBadge}</Badge> : null}
        </span>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
          disabled={disabled}
          onClick={() => removeButton(index)}
        >
          <Trash2 aria-hidden="true" />
          <span className="sr-only">Remove button {n}</span>
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-[11rem_1fr]">
        <FieldShell id={`${base}-type`} label={fieldLabel('Type')}>
          <NativeSelect
            id={`${base}-type`}
            value={button.type}
            disabled={disabled}
            {...invalidProps('type')}
            onChange={(e) => update({ type: 'updateButton', index, patch: { type: e.target.value as BuilderButtonType } })}
          >
            {BUTTON_TYPES.map((type) => (
              <option key={type} value={type}>
                {BUTTON_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <FieldShell id={`${base}-text`} label={fieldLabel('Text')}>
          <Input
            id={`${base}-text`}
            value={button.text}
            maxLength={TEMPLATE_LIMITS.buttonTextMax}
            disabled={disabled}
            placeholder={button.type === 'URL' ? 'Visit website' : button.type === 'PHONE_NUMBER' ? 'Call us' : 'Yes, thanks'}
            {...invalidProps('text')}
            onChange={(e) => update({ type: 'updateButton', index, patch: { text: e.target.value } })}
          />
        </FieldShell>
        {button.type === 'URL' ? (
          <FieldShell id={`${base}-url`} label={fieldLabel('URL')} className="sm:col-span-2">
            <Input
              id={`${base}-url`}
              type="url"
              inputMode="url"
              value={button.url}
              disabled={disabled}
              placeholder="https://example.com/orders/{{1}}"
              {...invalidProps('url')}
              onChange={(e) => update({ type: 'updateButton', index, patch: { url: e.target.value } })}
            />
          </FieldShell>
        ) : null}
        {button.type === 'PHONE_NUMBER' ? (
          <FieldShell id={`${base}-phone`} label={fieldLabel('Phone')} className="sm:col-span-2">
            <Input
              id={`${base}-phone`}
              type="tel"
              inputMode="tel"
              value={button.phone_number}
              disabled={disabled}
              placeholder="+91 98765 43210"
              {...invalidProps('phone_number')}
              onChange={(e) => update({ type: 'updateButton', index, patch: { phone_number: e.target.value } })}
            />
          </FieldShell>
        ) : null}
      </div>
      <div className="flex items-center justify-between gap-2">
        <FieldError id={errorId} message={error} />
        <span className="ml-auto">
          <CharacterCount value={button.text} max={TEMPLATE_LIMITS.buttonTextMax} />
        </span>
      </div>
    </li>
  );
}

export function ButtonsSection(props: SectionProps) {
  const { form, errors, disabled, rowKeys, addButton } = props;
  const full = form.buttons.length >= TEMPLATE_LIMITS.buttonsMax;
  return (
    <BuilderSection
      title="Buttons"
      description={`Optional: up to ${TEMPLATE_LIMITS.buttonsMax} quick replies, website links or phone calls.`}
      action={
        <div className="flex flex-wrap gap-2">
          {form.category === 'MARKETING' ? (
            <Button
              variant="outline"
              size="sm"
              title={messages.suppressions.stopPromotionsHint}
              disabled={disabled || full || form.buttons.some((button) => button.optOut)}
              onClick={() => addButton(true)}
            >
              <Plus aria-hidden="true" />
              {messages.suppressions.stopPromotionsAdd}
            </Button>
          ) : null}
          <Button variant="outline" size="sm" disabled={disabled || full} onClick={() => addButton(false)}>
            <Plus aria-hidden="true" />
            Add Button
          </Button>
        </div>
      }
    >
      {errors.buttons ? <FieldError id="template-buttons-error" message={errors.buttons} /> : null}
      {form.buttons.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No buttons.</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Buttons">
          {form.buttons.map((button, index) => (
            <ButtonRow key={rowKeys[index] ?? button.key} index={index} {...props} />
          ))}
        </ol>
      )}
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {form.buttons.length}/{TEMPLATE_LIMITS.buttonsMax} buttons
      </p>
    </BuilderSection>
  );
}
