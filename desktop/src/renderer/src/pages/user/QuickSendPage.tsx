import { CalendarClock, Send } from 'lucide-react';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatPhone, normalisePhone } from '@shared/phone';
import type { SpreadsheetMapping } from '@shared/spreadsheets';
import { DEFAULT_TEMPLATE_LANGUAGE } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { errorText, toApiError } from '../../api/client';
import { sendingApi, type QuickSendBody, type SendPreviewRequest } from '../../api/sending';
import { CampaignResultDialog } from '../../components/sending/CampaignResultDialog';
import { CostPreviewDialog } from '../../components/sending/CostPreviewDialog';
import { ScheduleControl } from '../../components/sending/ScheduleControl';
import { HeaderImageUpload, type ChosenImage } from '../../components/sending/HeaderImageUpload';
import { QuickSendSidePanel } from '../../components/sending/QuickSendSidePanel';
import { RecipientsField } from '../../components/sending/RecipientsField';
import { SheetCheckPanel, SheetDropZone, SheetSummaryView } from '../../components/sending/LocalSheetSections';
import { SenderSetupFields } from '../../components/sending/SenderSetupFields';
import { SetupProgress } from '../../components/sending/SetupProgress';
import { VariableInputs } from '../../components/sending/VariableInputs';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useSendPricing, useTemplateDetails } from '../../hooks/useSending';
import { useLocalSheet } from '../../hooks/useLocalSheet';
import { useSendSubmission } from '../../hooks/useSendSubmission';
import { sendFailure } from '../../lib/sending/campaign';
import { defaultCampaignName, firstMissingVariable, parseRecipientList, quickCampaignPreview, quickSendLabel, quickSendProgress, variablesComplete, variablesPayload } from '../../lib/sending/quickSend';
import { resolveSchedule, scheduledAcceptedText, scheduledNotice, scheduledSendLabel, SEND_NOW, type ScheduleChoice } from '../../lib/sending/schedule';
import { effectiveMapping, mappingFieldInvalid, RECIPIENT_FIELD, sheetRowCount } from '../../lib/sending/localSheet';
import { isBulkSend, messageText, priceFor, SEND_SCREEN, type SendVariable } from '../../lib/sending/setup';
import { errorToast, TOAST_IDS } from '../../lib/toasts';
import { StepCard } from '../../components/sending/StepCard';
import { AudienceSendLink } from '../../components/contacts/AudienceSendLink';

const s = messages.sending;
const ui = messages.sendScreens;
const NO_VARIABLES: readonly SendVariable[] = [];
const sheetText = messages.sheetScreens;

/** Where the numbers come from: typed or pasted, or a spreadsheet read on this computer. */
type RecipientSource = 'typed' | 'spreadsheet';

interface QuickSendForm {
  numberId: string;
  language: string;
  template: TTemplate | null;
  campaignName: string;
  recipientsText: string;
  values: Record<string, string>;
  /** Send now, or at a time in IST. */
  schedule: ScheduleChoice;
}

function emptyForm(): QuickSendForm {
  return { numberId: '', language: DEFAULT_TEMPLATE_LANGUAGE, template: null, campaignName: '', recipientsText: '', values: {}, schedule: SEND_NOW };
}

/** What a refused send can put back, since the form was reset when the dialog appeared. */
interface SentSnapshot {
  form: QuickSendForm;
  imageFile: File | null;
}

/** /user/whatsapp-bulk (spec 002 "Quick Send"): one approved template to a list of numbers. */
export function QuickSendPage() {
  const pricing = useSendPricing();
  const invalidateCredits = useInvalidateCredits();

  const [form, setForm] = useState<QuickSendForm>(emptyForm);
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  const [source, setSource] = useState<RecipientSource>('typed');
  const sheet = useLocalSheet();
  const fromSheet = source === 'spreadsheet';
  const [costRequest, setCostRequest] = useState<SendPreviewRequest | null>(null);
  // Spec §4: the success dialog appears after about a second while the request carries on.
  const submission = useSendSubmission<SentSnapshot>(SEND_SCREEN.successDialogDelayMs);
  const { processing } = submission;

  const imageUrl = useRef<string | null>(null);

  const details = useTemplateDetails(form.template?.name ?? '', form.language);
  const variables = details.data?.variables ?? NO_VARIABLES;
  const needsImage = details.data?.templateTypeInfo.hasStaticImage ?? false;

  // Counting a pasted list of a hundred thousand numbers should not hold up typing.
  const deferredRecipients = useDeferredValue(form.recipientsText);
  const recipients = useMemo(() => parseRecipientList(deferredRecipients), [deferredRecipients]);
  const summary = sheet.state.summary;
  // Quick Send takes only the numbers from a file: every row gets the same variable values.
  const sheetMapping: SpreadsheetMapping | null = summary ? effectiveMapping(summary, [], sheet.state.choices) : null;
  const sheetColumn = sheetMapping?.recipientColumn ?? '';
  // The first rows' numbers (at most 20), for the side panel's preview and the cost dialog's first message.
  const sheetRecipients = summary && sheetColumn ? summary.sample.flatMap((row) => normalisePhone(row[sheetColumn] ?? '') ?? []) : [];
  const count = fromSheet ? sheetRowCount(sheet.state) : recipients.valid.length;
  const validShown = fromSheet ? sheetRecipients : recipients.valid;
  const sheetBusy = sheet.state.step === 'parsing' || sheet.state.step === 'preparing' || sheet.state.step === 'uploading';

  const progress = quickSendProgress({
    hasNumber: form.numberId !== '',
    hasTemplate: form.template !== null,
    recipientCount: count,
    variablesComplete: details.isSuccess && variablesComplete(variables, form.values),
  });
  const price = priceFor(pricing, form.template?.category);
  const variableOrder = variables.map((variable) => variable.index);
  const previewRows = form.template ? quickCampaignPreview(validShown, form.template, variableOrder, form.values) : [];
  const filledCount = variables.filter((variable) => (form.values[variable.index] ?? '').trim() !== '').length;

  useEffect(
    () => () => {
      if (imageUrl.current) URL.revokeObjectURL(imageUrl.current);
    },
    [],
  );

  const chooseImage = useCallback((file: File | null) => {
    if (imageUrl.current) URL.revokeObjectURL(imageUrl.current);
    const url = file ? URL.createObjectURL(file) : null;
    imageUrl.current = url;
    setImage(file && url ? { file, url } : null);
  }, []);

  const update = (patch: Partial<QuickSendForm>) => setForm((current) => ({ ...current, ...patch }));
  const handleNumberChange = useCallback((numberId: string) => setForm((current) => ({ ...current, numberId })), []);
  const handleLanguageChange = useCallback(
    (language: string) => {
      // Spec §4: changing the language clears the chosen template.
      setForm((current) => ({ ...current, language, template: null, values: {} }));
      chooseImage(null);
    },
    [chooseImage],
  );
  const chosenName = form.template?.name;
  const handleTemplateChange = useCallback(
    (template: TTemplate | null) => {
      if (template?.name === chosenName) return;
      // Values and the header image belong to the template they were entered for.
      setForm((current) => ({ ...current, template, values: {} }));
      chooseImage(null);
      setShowMissing(false);
    },
    [chooseImage, chosenName],
  );

  const resetForm = () => {
    // The sender number and language stay: the next campaign usually goes out the same way.
    setForm((current) => ({ ...emptyForm(), numberId: current.numberId, language: current.language }));
    chooseImage(null);
    setShowMissing(false);
    sheet.clear();
  };

  const handleSend = async (event?: FormEvent) => {
    event?.preventDefault();
    const template = form.template;
    if (!form.numberId || !template || count === 0) {
      toast.error(!fromSheet && count === 0 && recipients.invalid.length > 0 ? s.noValidRecipients : s.missingFields);
      return;
    }
    if (fromSheet && !sheetMapping?.recipientColumn) {
      toast.error(messages.spreadsheets.recipientColumnRequired);
      return;
    }
    if (!details.isSuccess) {
      // The variables are not known yet (still loading, or the load failed and says so).
      if (details.isError) toast.error(errorText(details.error, s.templatesLoadFailed));
      return;
    }
    if (needsImage && !image) {
      setShowMissing(true);
      errorToast(TOAST_IDS.headerImage, s.imageRequired);
      return;
    }
    const missing = firstMissingVariable(variables, form.values);
    if (missing) {
      setShowMissing(true);
      toast.error(fillMessage(s.variableMissing, { name: missing.index }));
      return;
    }
    const schedule = resolveSchedule(form.schedule);
    if (!schedule.ok) {
      toast.error(schedule.problem);
      return;
    }
    // A spreadsheet's rows are checked and uploaded first (once per column choice).
    const uploadId = fromSheet && sheetMapping ? await sheet.checkAndUpload(sheetMapping) : null;
    if (fromSheet && !uploadId) return;
    // The preview is the dry run of this very send: every recipient, screened as acceptance will.
    setCostRequest({ kind: 'quick', body: quickSendBody(template, schedule.scheduledAt, uploadId), recipientCount: count });
  };

  /**
   * The list as typed (the server numbers rows as the user sees them and applies the phone rule
   * itself), or the upload of the checked rows with the column holding the numbers.
   */
  const quickSendBody = (template: TTemplate, scheduledAt: string | undefined, uploadId: string | null): QuickSendBody => ({
    phone_number_id: form.numberId,
    template_name: template.name,
    language: form.language,
    ...(uploadId && sheetMapping ? { uploadId, recipientColumn: sheetMapping.recipientColumn } : { recipients_text: form.recipientsText }),
    variables: variablesPayload(variables, form.values),
    campaign_name: form.campaignName.trim() || defaultCampaignName(template.name, new Date()),
    ...(scheduledAt ? { scheduledAt } : {}),
  });

  const handleConfirm = () => {
    const template = form.template;
    if (!template || processing) return;
    // The confirmation may have stayed open long enough for the chosen time to come too close.
    const schedule = resolveSchedule(form.schedule);
    if (!schedule.ok) {
      toast.error(schedule.problem);
      setCostRequest(null);
      return;
    }
    const bulk = isBulkSend(count);
    const uploadId = costRequest?.kind === 'quick' && 'uploadId' in costRequest.body ? costRequest.body.uploadId : null;
    const body = quickSendBody(template, schedule.scheduledAt, uploadId);
    const imageFile = needsImage ? (image?.file ?? null) : null;
    setCostRequest(null);
    // A refusal before the dialog keeps the form; a later one offers this snapshot back (the form was reset).
    submission.submit({
      send: async () => {
        const response = await sendingApi.quickSend(body, count, imageFile);
        invalidateCredits();
        const { scheduledAt } = response.data;
        const message = scheduledAt
          ? scheduledAcceptedText(response.data.accepted, scheduledAt)
          : response.message || fillMessage(bulk ? s.bulkSendAccepted : s.quickSendAccepted, { count: response.data.accepted });
        return { phase: 'accepted', message, accepted: response.data };
      },
      // Unlike the spec's client, which only logs it: a refused send must be seen (docs/sending.md).
      describeFailure: (caught) => sendFailure(toApiError(caught), bulk),
      snapshot: { form, imageFile },
      onDialogShown: resetForm,
    });
  };

  const handleRestore = () => {
    const restorable = submission.takeRestorable();
    if (!restorable) return;
    setForm(restorable.form);
    chooseImage(restorable.imageFile);
    toast.success(ui.formRestored);
  };

  const detailsError = details.isError ? errorText(details.error, s.templatesLoadFailed) : '';
  const sendDisabled = !form.numberId || !form.template || count === 0 || processing || (fromSheet && sheetBusy);
  const scheduled = form.schedule.mode === 'later';
  const notice = scheduled ? scheduledNotice(form.schedule.local) : '';

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{ui.quickSendTitle}</h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Send an approved template to a list of WhatsApp numbers.</p>
        <AudienceSendLink />
      </div>

      <SetupProgress progress={progress} label="Campaign setup" />

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
        <form className="flex flex-col gap-6" onSubmit={(event) => void handleSend(event)} noValidate>
          <StepCard step={1} title="WhatsApp Configuration" description="Pick the number to send from, the language and an approved template.">
            <SenderSetupFields
              screen="quick"
              idPrefix="quick-send"
              numberId={form.numberId}
              onNumberChange={handleNumberChange}
              language={form.language}
              onLanguageChange={handleLanguageChange}
              templateName={form.template?.name ?? ''}
              onTemplateChange={handleTemplateChange}
              disabled={processing}
            />
          </StepCard>

          <StepCard step={2} title="Recipients" description="Numbers with the country code, one per line or separated by commas.">
            <TextField
              id="quick-send-campaign-name"
              label="Campaign Name (optional)"
              value={form.campaignName}
              maxLength={200}
              disabled={processing}
              placeholder={form.template ? defaultCampaignName(form.template.name, new Date()) : 'Quick Send'}
              onChange={(event) => update({ campaignName: event.target.value })}
            />
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">{sheetText.modeLabel}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {(['typed', 'spreadsheet'] as const).map((option) => (
                  <label key={option} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="quick-send-source"
                      value={option}
                      checked={source === option}
                      disabled={processing || sheetBusy}
                      onChange={() => setSource(option)}
                      className="size-4 accent-emerald-600"
                    />
                    {option === 'typed' ? sheetText.modeTyped : sheetText.modeSpreadsheet}
                  </label>
                ))}
              </div>
            </fieldset>
            {fromSheet ? (
              <>
                <SheetDropZone sheet={sheet} inputTestId="quick-send-file-input" disabled={processing} />
                {summary && sheetMapping ? (
                  <>
                    <SheetSummaryView
                      idPrefix="quick-send"
                      summary={summary}
                      recipientColumn={sheetMapping.recipientColumn}
                      recipientInvalid={mappingFieldInvalid(RECIPIENT_FIELD, sheetMapping.recipientColumn, sheet.state.choices, false)}
                      onRecipientColumnChange={sheet.chooseRecipient}
                      disabled={processing || sheetBusy}
                    />
                    <SheetCheckPanel sheet={sheet} mapping={sheetMapping} canCheck={sheetMapping.recipientColumn !== ''} disabled={processing} />
                  </>
                ) : null}
              </>
            ) : (
              <RecipientsField
                value={form.recipientsText}
                onChange={(recipientsText) => update({ recipientsText })}
                summary={recipients}
                disabled={processing}
              />
            )}
          </StepCard>

          {needsImage ? (
            <StepCard step={3} title="Header Image" description="This template has an image header: choose the image to send.">
              <HeaderImageUpload image={image} onChange={chooseImage} disabled={processing} missing={showMissing} />
            </StepCard>
          ) : null}

          <StepCard step={needsImage ? 4 : 3} title="Template Variables" description="The values every recipient gets in place of the variables.">
            {!form.template ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">Choose a template first.</p>
            ) : details.isPending ? (
              <Spinner label="Loading template variables" />
            ) : detailsError ? (
              <Alert tone="error">
                <p>{detailsError}</p>
                <Button variant="outline" size="sm" className="mt-2" onClick={() => void details.refetch()}>
                  Try again
                </Button>
              </Alert>
            ) : (
              <VariableInputs
                variables={variables}
                values={form.values}
                examples={form.template.variableExamples}
                disabled={processing}
                showMissing={showMissing}
                onChange={(index, value) => setForm((current) => ({ ...current, values: { ...current.values, [index]: value } }))}
              />
            )}
          </StepCard>

          <Card>
            <CardContent className="flex flex-col gap-4 p-4">
              <ScheduleControl idPrefix="quick-send" value={form.schedule} onChange={(schedule) => update({ schedule })} disabled={processing} />
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="send-timing-note">
                  {notice || 'You confirm the cost before anything is sent.'}
                </p>
                <Button type="submit" size="lg" disabled={sendDisabled} data-testid="quick-send-submit">
                  {processing ? <Spinner className="text-current" /> : scheduled ? <CalendarClock aria-hidden="true" /> : <Send aria-hidden="true" />}
                  {processing ? messages.wallet.processing : scheduled ? scheduledSendLabel(count) : quickSendLabel(count)}
                </Button>
              </div>
            </CardContent>
          </Card>
        </form>

        <QuickSendSidePanel
          template={form.template}
          values={form.values}
          imageUrl={image?.url ?? null}
          recipients={count}
          variablesFilled={filledCount}
          variablesTotal={variables.length}
          pricePerMessage={price}
          previewRows={previewRows}
        />
      </div>

      <CostPreviewDialog
        open={costRequest !== null}
        onOpenChange={(open) => (open ? undefined : setCostRequest(null))}
        request={costRequest}
        estimate={{ recipients: count, category: form.template?.category ?? '', pricePerMessage: price }}
        firstRecipient={form.template && validShown[0] ? { recipient: formatPhone(validShown[0]), text: messageText(form.template, form.values) } : null}
        normalised={fromSheet ? undefined : { items: recipients.normalised, total: recipients.normalisedCount }}
        title="Confirm Campaign"
        cancelLabel="Cancel"
        confirmLabel={costRequest?.body.scheduledAt ? ui.confirmAndSchedule : ui.confirmAndSend}
        scheduledAt={costRequest?.body.scheduledAt ?? null}
        onConfirm={handleConfirm}
        isSending={processing}
      />

      <CampaignResultDialog
        open={submission.dialogOpen}
        onOpenChange={submission.setDialogOpen}
        outcome={submission.outcome}
        onRestore={submission.restorable ? handleRestore : undefined}
      />
    </div>
  );
}
