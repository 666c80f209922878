import { CalendarClock, Send } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type BaseSyntheticEvent } from 'react';
import { Controller, type FieldErrors } from 'react-hook-form';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatPhone, normalisePhone } from '@shared/phone';
import type { SpreadsheetMapping } from '@shared/spreadsheets';
import type { TTemplate } from '@shared/types';
import { errorText, toApiError } from '../../api/client';
import { sendingApi, type QuickSendBody, type SendPreviewRequest } from '../../api/sending';
import { CampaignResultDialog } from '../../components/sending/CampaignResultDialog';
import { CostPreviewDialog } from '../../components/sending/CostPreviewDialog';
import { ScheduleControl } from '../../components/sending/ScheduleControl';
import { HeaderImageUpload } from '../../components/sending/HeaderImageUpload';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { QuickSendSidePanel } from '../../components/sending/QuickSendSidePanel';
import { RecipientsField } from '../../components/sending/RecipientsField';
import { SheetCheckPanel, SheetDropZone, SheetSummaryView } from '../../components/sending/LocalSheetSections';
import { SenderSetupFields } from '../../components/sending/SenderSetupFields';
import { SetupProgress } from '../../components/sending/SetupProgress';
import { VariableInputs } from '../../components/sending/VariableInputs';
import { RetryAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { FormTextField } from '../../components/form/fields';
import { Spinner } from '../../components/ui/spinner';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useSendPricing, useTemplateDetails } from '../../hooks/useSending';
import { useLocalSheet } from '../../hooks/useLocalSheet';
import { useSendSubmission } from '../../hooks/useSendSubmission';
import { sendFailure } from '../../lib/sending/campaign';
import { defaultCampaignName, parseRecipientList, quickCampaignPreview, quickSendLabel, quickSendProgress, variablesComplete, variablesPayload } from '../../lib/sending/quickSend';
import {
  emptyQuickSendForm,
  QUICK_SEND_CHECK_ORDER,
  quickSendFormSchema,
  RECIPIENT_SOURCES,
  recipientSourceFromQuery,
  type QuickSendChecks,
  type TQuickSendChecked,
  type TQuickSendForm,
  VARIABLES_LOADING,
} from '../../lib/sending/quickSendForm';
import { resolveSchedule, scheduledAcceptedText, scheduledNotice, scheduledSendLabel } from '../../lib/sending/schedule';
import { effectiveMapping, mappingFieldInvalid, RECIPIENT_FIELD, sheetRowCount } from '../../lib/sending/localSheet';
import { isBulkSend, messageText, priceFor, SEND_SCREEN, type SendVariable } from '../../lib/sending/setup';
import { errorToast, TOAST_IDS } from '../../lib/toasts';
import { recipientsFromQuery } from '../../lib/replies';
import { StepCard } from '../../components/sending/StepCard';
import { ContactsAudienceSend } from '../../components/contacts/ContactsAudienceSend';
import type { TAudiencePreview } from '@shared/schemas/contacts';

const s = messages.sending;
const ui = messages.sendScreens;
const NO_VARIABLES: readonly SendVariable[] = [];
/** Before a send is tried nothing is checked. */
const NO_CHECKS: QuickSendChecks = { count: 0, invalidTyped: 0, sheetColumn: '', details: { status: 'pending', failure: '' }, variables: NO_VARIABLES, needsImage: false };
const sheetText = messages.sheetScreens;

/** What a refused send can put back, since the form was reset when the dialog appeared. */
interface SentSnapshot {
  form: Omit<TQuickSendForm, 'image'>;
  imageFile: File | null;
}

/** /user/whatsapp-bulk (spec 002 "Quick Send"): one approved template to a list of numbers. */
export function QuickSendPage() {
  const pricing = useSendPricing();
  const invalidateCredits = useInvalidateCredits();

  const [searchParams] = useSearchParams();
  // What the checks know besides the fields (numbers counted, variables loaded), as of the send.
  const sendChecks = useRef<QuickSendChecks>(NO_CHECKS);
  const sendForm = useSchemaForm(
    // eslint-disable-next-line react-hooks/refs -- the getter is called when a send is checked (an event), never while rendering
    useMemo(() => quickSendFormSchema(() => sendChecks.current), []),
    // `?to=` (Replies, a contact outside the service window): that number is filled in;
    // `?source=contacts&segment=` (the contact screens): the Contacts source, that segment chosen.
    { ...emptyQuickSendForm(), source: recipientSourceFromQuery(searchParams.get('source')), recipientsText: recipientsFromQuery(searchParams.get('to')) },
  );
  const { control, setValue, getValues } = sendForm;
  const form = sendForm.watch();
  const image = form.image;
  const [showMissing, setShowMissing] = useState(false);
  const sheet = useLocalSheet();
  const fromSheet = form.source === 'spreadsheet';
  const fromContacts = form.source === 'contacts';
  const [audienceStart] = useState(() => ({ segment: searchParams.get('segment'), tags: searchParams.get('tags') }));
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
  // The Contacts source is counted by the server's dry run; until one stands for the send, it is unknown.
  const [audiencePreview, setAudiencePreview] = useState<TAudiencePreview | null>(null);
  const audienceSample = fromContacts ? (audiencePreview?.sample ?? null) : null;
  const count = fromSheet ? sheetRowCount(sheet.state) : fromContacts ? (audiencePreview?.recipients ?? 0) : recipients.valid.length;
  const validShown = fromSheet ? sheetRecipients : fromContacts ? (audienceSample ? [audienceSample.phone] : []) : recipients.valid;
  const shownValues = audienceSample?.values ?? form.values;
  const sheetBusy = sheet.state.step === 'parsing' || sheet.state.step === 'preparing' || sheet.state.step === 'uploading';

  const progress = quickSendProgress({
    hasNumber: form.numberId !== '',
    hasTemplate: form.template !== null,
    recipientCount: count,
    variablesComplete: details.isSuccess && variablesComplete(variables, form.values),
  });
  const price = priceFor(pricing, form.template?.category);
  const variableOrder = variables.map((variable) => variable.index);
  const previewRows = form.template ? quickCampaignPreview(validShown, form.template, variableOrder, shownValues) : [];
  const filledCount = variables.filter((variable) => (shownValues[variable.index] ?? '').trim() !== '').length;

  useEffect(
    () => () => {
      if (imageUrl.current) URL.revokeObjectURL(imageUrl.current);
    },
    [],
  );

  const chooseImage = useCallback(
    (file: File | null) => {
      if (imageUrl.current) URL.revokeObjectURL(imageUrl.current);
      const url = file ? URL.createObjectURL(file) : null;
      imageUrl.current = url;
      setValue('image', file && url ? { file, url } : null);
    },
    [setValue],
  );

  const handleNumberChange = useCallback((numberId: string) => setValue('numberId', numberId), [setValue]);
  const handleLanguageChange = useCallback(
    (language: string) => {
      // Spec §4: changing the language clears the chosen template.
      setValue('language', language);
      setValue('template', null);
      setValue('values', {});
      chooseImage(null);
    },
    [chooseImage, setValue],
  );
  const handleTemplateChange = useCallback(
    (template: TTemplate | null) => {
      if (template?.name === getValues('template')?.name) return;
      // Values and the header image belong to the template they were entered for.
      setValue('template', template);
      setValue('values', {});
      chooseImage(null);
      setShowMissing(false);
    },
    [chooseImage, getValues, setValue],
  );

  const handleContactsSent = () => {
    // As after any send: the campaign's own fields go, the way it was sent stays.
    const { numberId, language, source, template } = getValues();
    chooseImage(null);
    sendForm.reset({ ...emptyQuickSendForm(), numberId, language, source, template });
  };

  const resetForm = () => {
    // The sender number and language stay: the next campaign usually goes out the same way.
    // So does where the numbers come from.
    const { numberId, language, source } = getValues();
    chooseImage(null);
    sendForm.reset({ ...emptyQuickSendForm(), numberId, language, source });
    setShowMissing(false);
    sheet.clear();
  };

  /** The first problem of a refused send, told as the screen always has: a toast, and the missing fields marked. */
  const handleInvalid = (errors: FieldErrors<TQuickSendForm>) => {
    const field = QUICK_SEND_CHECK_ORDER.find((name) => errors[name]);
    const error = field ? errors[field] : undefined;
    const message = typeof error?.message === 'string' ? error.message : undefined;
    if (field === 'image' || field === 'values') setShowMissing(true);
    // No message while the template's variables load: the spinner in their step says so.
    if (!message || message === VARIABLES_LOADING) return;
    if (field === 'image') errorToast(TOAST_IDS.headerImage, message);
    else toast.error(message);
  };

  const handleValid = async (checked: TQuickSendChecked) => {
    // A spreadsheet's rows are checked and uploaded first (once per column choice).
    const uploadId = fromSheet && sheetMapping ? await sheet.checkAndUpload(sheetMapping) : null;
    if (fromSheet && !uploadId) return;
    // The preview is the dry run of this very send: every recipient, screened as acceptance will.
    setCostRequest({ kind: 'quick', body: quickSendBody(checked.template, checked.scheduledAt, uploadId), recipientCount: count });
  };

  const checksNow: QuickSendChecks = {
    count,
    invalidTyped: recipients.invalid.length,
    sheetColumn: sheetMapping?.recipientColumn ?? '',
    details: { status: details.status, failure: details.isError ? errorText(details.error, s.templatesLoadFailed) : '' },
    variables,
    needsImage,
  };

  const handleSend = (event?: BaseSyntheticEvent) => {
    // The Contacts source previews and sends with its own buttons.
    if (fromContacts) {
      event?.preventDefault();
      return;
    }
    sendChecks.current = checksNow;
    void sendForm.handleSubmit(handleValid, handleInvalid)(event);
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
    const { image: _image, ...fields } = getValues();
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
      snapshot: { form: fields, imageFile },
      onDialogShown: resetForm,
    });
  };

  const handleRestore = () => {
    const restorable = submission.takeRestorable();
    if (!restorable) return;
    sendForm.reset({ ...restorable.form, source: getValues('source'), image: null });
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
            <FormTextField
              control={control}
              name="campaignName"
              id="quick-send-campaign-name"
              label="Campaign Name (optional)"
              maxLength={200}
              disabled={processing}
              placeholder={form.template ? defaultCampaignName(form.template.name, new Date()) : 'Quick Send'}
            />
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">{sheetText.modeLabel}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {RECIPIENT_SOURCES.map((option) => (
                  <label key={option} className="flex items-center gap-2">
                    <input
                      type="radio"
                      {...sendForm.register('source')}
                      value={option}
                      disabled={processing || sheetBusy}
                      className="size-4 accent-emerald-600"
                    />
                    {option === 'typed' ? sheetText.modeTyped : option === 'spreadsheet' ? sheetText.modeSpreadsheet : sheetText.modeContacts}
                  </label>
                ))}
              </div>
            </fieldset>
            {fromContacts ? null : fromSheet ? (
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
              <Controller
                control={control}
                name="recipientsText"
                render={({ field }) => <RecipientsField value={field.value} onChange={field.onChange} summary={recipients} disabled={processing} />}
              />
            )}
          </StepCard>

          {needsImage ? (
            <StepCard step={3} title="Header Image" description="This template has an image header: choose the image to send.">
              <HeaderImageUpload image={image} onChange={chooseImage} disabled={processing} missing={showMissing} />
            </StepCard>
          ) : null}

          {fromContacts ? (
            <StepCard step={needsImage ? 4 : 3} title="Contacts" description="A segment or tagged contacts; each variable from an attribute, with a fallback, or a fixed text.">
              {detailsError ? (
                <RetryAlert message={detailsError} onRetry={() => void details.refetch()} />
              ) : (
                <Controller
                  control={control}
                  name="schedule"
                  render={({ field }) => (
                    <ContactsAudienceSend
                      idPrefix="quick-send"
                      numberId={form.numberId}
                      language={form.language}
                      template={form.template}
                      variables={details.isSuccess ? variableOrder : null}
                      campaignName={form.campaignName}
                      headerImage={needsImage ? (image?.file ?? null) : null}
                      imageMissing={needsImage && !image}
                      schedule={field.value}
                      onScheduleChange={field.onChange}
                      initial={audienceStart}
                      onSent={handleContactsSent}
                      onPreviewChange={setAudiencePreview}
                    />
                  )}
                />
              )}
            </StepCard>
          ) : (
            <>
              <StepCard step={needsImage ? 4 : 3} title="Template Variables" description="The values every recipient gets in place of the variables.">
                {!form.template ? (
                  <p className="text-sm text-slate-500 dark:text-slate-400">Choose a template first.</p>
                ) : details.isPending ? (
                  <Spinner label="Loading template variables" />
                ) : detailsError ? (
                  <RetryAlert message={detailsError} onRetry={() => void details.refetch()} />
                ) : (
                  <VariableInputs
                    variables={variables}
                    values={form.values}
                    examples={form.template.variableExamples}
                    disabled={processing}
                    showMissing={showMissing}
                    onChange={(index, value) => setValue(`values.${index}`, value)}
                  />
                )}
              </StepCard>

              <Card>
                <CardContent className="flex flex-col gap-4 p-4">
                  <Controller
                    control={control}
                    name="schedule"
                    render={({ field }) => <ScheduleControl idPrefix="quick-send" value={field.value} onChange={field.onChange} disabled={processing} />}
                  />
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
            </>
          )}
        </form>

        <QuickSendSidePanel
          template={form.template}
          values={shownValues}
          imageUrl={image?.url ?? null}
          recipients={fromContacts && !audiencePreview ? null : count}
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
