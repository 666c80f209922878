import { ArrowLeft, CalendarClock, Eye, LogIn, Send } from 'lucide-react';
import { useCallback, useMemo, useReducer, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { unmappedVariable } from '@shared/sheetRows';
import { parameterRule } from '@shared/parameterLimits';
import type { TTemplate } from '@shared/types';
import { errorText, toApiError } from '../../api/client';
import { sendingApi, type CustomSendBody, type SendPreviewRequest } from '../../api/sending';
import { CampaignResultDialog } from '../../components/sending/CampaignResultDialog';
import { CostPreviewDialog } from '../../components/sending/CostPreviewDialog';
import { GeneratedPreview } from '../../components/sending/CustomizeSections';
import { SheetCheckPanel, SheetDropZone, SheetSummaryView, SheetVariableMapping, VariablesOrHint } from '../../components/sending/LocalSheetSections';
import { LivePreviewCard } from '../../components/sending/LivePreviewCard';
import { ScheduleControl } from '../../components/sending/ScheduleControl';
import { TipsCard } from '../../components/sending/QuickSendSidePanel';
import { SenderSetupFields } from '../../components/sending/SenderSetupFields';
import { SetupProgress } from '../../components/sending/SetupProgress';
import { Alert, RetryAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useSendPricing, useTemplateDetails } from '../../hooks/useSending';
import { useLocalSheet } from '../../hooks/useLocalSheet';
import { useSendSubmission } from '../../hooks/useSendSubmission';
import { sendFailure } from '../../lib/sending/campaign';
import {
  allVariablesMapped,
  customizeFormReducer,
  customizeProgress,
  customPreview,
  customSendLabel,
  initialCustomizeForm,
  mappingsPayload,
} from '../../lib/sending/customize';
import { autoMappedVariables, effectiveMapping, mappingFieldInvalid, mappingVariables, RECIPIENT_FIELD, sheetRowCount } from '../../lib/sending/localSheet';
import { resolveSchedule, scheduledAcceptedText, scheduledNotice, scheduledSendLabel, SEND_NOW, type ScheduleChoice } from '../../lib/sending/schedule';
import { isBulkSend, priceFor } from '../../lib/sending/setup';
import { useSessionStore } from '../../stores/sessionStore';
import { StepCard } from '../../components/sending/StepCard';
import { ContactsAudienceSend } from '../../components/contacts/ContactsAudienceSend';

const s = messages.sending;
const ui = messages.sendScreens;
const NO_COLUMNS: readonly string[] = [];
const NO_ROWS: readonly Record<string, string>[] = [];
const NO_MAPPINGS: Record<string, string> = {};
const sheetText = messages.sheetScreens;
/** Where the rows come from: a spreadsheet read on this computer, or the contact book. */
const CUSTOMIZE_SOURCES = ['spreadsheet', 'contacts'] as const;
type CustomizeSource = (typeof CUSTOMIZE_SOURCES)[number];

function BackToDashboard() {
  return (
    <Button variant="ghost" size="sm" asChild className="self-start">
      <Link to="/user/dashboard">
        <ArrowLeft aria-hidden="true" />
        {ui.backToDashboard}
      </Link>
    </Button>
  );
}

/** /user/customize-message (spec 002 "Customize Message"): one personalised message per spreadsheet row. */
export function CustomizeMessagePage() {
  const user = useSessionStore((state) => state.user);
  if (!user) {
    return (
      <div className="flex flex-col gap-4">
        <BackToDashboard />
        <Alert tone="warning">
          <p className="font-semibold">{ui.authenticationRequired}</p>
          <p className="mt-1">{ui.authenticationRequiredBody}</p>
          <Button asChild size="sm" className="mt-3">
            <Link to="/login">
              <LogIn aria-hidden="true" />
              {ui.goToLogin}
            </Link>
          </Button>
        </Alert>
      </div>
    );
  }
  return <CustomizeMessage />;
}

function CustomizeMessage() {
  const pricing = useSendPricing();
  const invalidateCredits = useInvalidateCredits();

  const [form, dispatch] = useReducer(customizeFormReducer, undefined, initialCustomizeForm);
  const sheet = useLocalSheet();
  const [costRequest, setCostRequest] = useState<SendPreviewRequest | null>(null);
  // Mapping fields show as errors once touched, or once a send was tried with one empty.
  const [sendTried, setSendTried] = useState(false);
  // Send now, or at a time in IST; back to "now" once a send is accepted.
  const [schedule, setSchedule] = useState<ScheduleChoice>(SEND_NOW);
  const [rememberColumns, setRememberColumns] = useState(false);
  // `?source=contacts&segment=` (the contact screens): the Contacts source, that segment chosen.
  const [searchParams] = useSearchParams();
  const [recipientSource, setRecipientSource] = useState<CustomizeSource>(searchParams.get('source') === 'contacts' ? 'contacts' : 'spreadsheet');
  const [audienceStart] = useState(() => ({ segment: searchParams.get('segment'), tags: searchParams.get('tags') }));
  const fromContacts = recipientSource === 'contacts';
  // The dialog waits for the answer: the rows are cleared only once the send is accepted.
  const submission = useSendSubmission<null>(null);
  const sending = submission.processing;
  const { numberId, language, template, campaignName, preview } = form;

  const details = useTemplateDetails(template?.name ?? '', language);
  const variables = details.data?.variables.map((variable) => variable.index) ?? NO_COLUMNS;
  const mappingVars = useMemo(() => mappingVariables(variables, template?.variableExamples ?? {}), [variables, template]);
  const summary = sheet.state.summary;
  const rows = summary?.sample ?? NO_ROWS;
  const mapping = summary ? effectiveMapping(summary, mappingVars, sheet.state.choices) : null;
  const recipientColumn = mapping?.recipientColumn ?? '';
  const mappings = mapping?.variableMappings ?? NO_MAPPINGS;
  const mapped = details.isSuccess && allVariablesMapped(variables, mappings);
  const rowCount = sheetRowCount(sheet.state);
  const bulk = isBulkSend(rowCount);
  const price = priceFor(pricing, template?.category);
  const sheetBusy = sheet.state.step === 'parsing' || sheet.state.step === 'preparing' || sheet.state.step === 'uploading';

  const progress = customizeProgress({
    hasNumber: numberId !== '',
    hasTemplate: template !== null,
    hasFile: summary !== null,
    hasRecipientColumn: recipientColumn !== '',
    variablesMapped: mapped,
  });

  // The live preview follows the first row, so that it reads like a real message.
  const firstRowValues = template && summary ? (customPreview(rows, recipientColumn || (summary.header[0] ?? ''), variables, mappings, template, 1)[0]?.values ?? {}) : {};

  const handleNumberChange = useCallback((next: string) => dispatch({ type: 'numberChosen', numberId: next }), []);
  const { resetChoices } = sheet;
  const chosenName = template?.name;
  const handleLanguageChange = useCallback(
    (next: string) => {
      dispatch({ type: 'languageChosen', language: next });
      resetChoices();
    },
    [resetChoices],
  );
  const handleTemplateChange = useCallback(
    (next: TTemplate | null) => {
      if (next?.name === chosenName) return;
      dispatch({ type: 'templateChosen', template: next });
      // The columns chosen belong to the last template's variables.
      resetChoices();
    },
    [resetChoices, chosenName],
  );

  const handleColumnChange = (column: string) => {
    sheet.chooseRecipient(column);
    dispatch({ type: 'previewCleared' });
  };
  const handleMappingChange = (variable: string, column: string) => {
    sheet.chooseVariable(variable, column);
    dispatch({ type: 'previewCleared' });
  };

  const handleGeneratePreview = () => {
    if (!template || !summary || !recipientColumn) {
      toast.error(s.customMissingFields);
      return;
    }
    const generated = customPreview(rows, recipientColumn, variables, mappings, template);
    if (generated.length === 0) {
      toast.error(s.previewFailed);
      return;
    }
    dispatch({ type: 'previewGenerated', rows: generated });
  };

  /** The checks before the cost modal (spec §5), each with its message; null when all pass. */
  const sendProblem = (): string | null => {
    if (!numberId || !template || !summary || !recipientColumn) return s.customMissingFields;
    if (rowCount === 0) return s.noRecipientsInFile;
    if (!details.isSuccess) return s.customMissingFields;
    const unmapped = unmappedVariable(variables, mappings);
    if (unmapped !== null) return fillMessage(ui.variableUnmapped, { name: unmapped });
    return null;
  };

  const handleSend = async () => {
    const problem = sendProblem();
    if (problem || !template || !mapping) {
      setSendTried(true);
      toast.error(problem ?? s.customMissingFields);
      return;
    }
    const timing = resolveSchedule(schedule);
    if (!timing.ok) {
      toast.error(timing.problem);
      return;
    }
    // Every row is checked here and the checked rows uploaded (once per mapping); the preview is
    // then the dry run of this very send over the whole upload, screened as acceptance will.
    // The template's parameter limits go with the mapping: rows acceptance would refuse are counted invalid, with its reasons.
    const uploadId = await sheet.checkAndUpload({ ...mapping, parameterRule: parameterRule(template.components) });
    if (!uploadId) return;
    setCostRequest({ kind: 'custom', body: customSendBody(template, timing.scheduledAt, uploadId) });
  };

  const customSendBody = (chosen: TTemplate, scheduledAt: string | undefined, uploadId: string): CustomSendBody => ({
    templateName: chosen.name,
    language,
    phoneNumberId: numberId,
    recipientColumn,
    variableMappings: mappingsPayload(mappings, variables),
    uploadId,
    ...(campaignName.trim() ? { campaignName: campaignName.trim() } : {}),
    ...(scheduledAt ? { scheduledAt } : {}),
    ...(rememberColumns ? { rememberColumns: true } : {}),
  });

  const handleConfirm = () => {
    if (!template || !costRequest || costRequest.kind !== 'custom' || !('uploadId' in costRequest.body) || sending) return;
    const { uploadId } = costRequest.body;
    // The confirmation may have stayed open long enough for the chosen time to come too close.
    const timing = resolveSchedule(schedule);
    if (!timing.ok) {
      toast.error(timing.problem);
      setCostRequest(null);
      return;
    }
    const body = customSendBody(template, timing.scheduledAt, uploadId);
    submission.submit({
      send: async () => {
        const response = await sendingApi.customSend(body);
        invalidateCredits();
        const { scheduledAt } = response.data;
        const message = scheduledAt
          ? scheduledAcceptedText(response.data.accepted, scheduledAt)
          : response.message || fillMessage(s.customSendAccepted, { count: response.data.accepted });
        return { phase: 'accepted', message, accepted: response.data };
      },
      describeFailure: (caught) => sendFailure(toApiError(caught), bulk),
      snapshot: null,
      onSettled: () => setCostRequest(null),
      onDialogShown: () => {
        dispatch({ type: 'sent' });
        sheet.clear();
        setSendTried(false);
        setSchedule(SEND_NOW);
      },
    });
  };

  const firstRecipient = template && summary && recipientColumn ? customPreview(rows, recipientColumn, variables, mappings, template, 1)[0] : undefined;
  const detailsError = details.isError ? errorText(details.error, s.templatesLoadFailed) : '';
  const busy = sending || sheetBusy;
  const scheduled = schedule.mode === 'later';
  const notice = scheduled ? scheduledNotice(schedule.local) : '';
  const autoMapped = summary ? autoMappedVariables(summary, mappingVars, sheet.state.choices) : [];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <BackToDashboard />
        <h2 className="text-2xl font-bold tracking-tight">{ui.customizeTitle}</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Send each row of a spreadsheet its own message, with the template's variables filled from the row.
        </p>
      </div>

      <SetupProgress progress={progress} label="Campaign setup" />

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="flex flex-col gap-6">
          <StepCard step={1} title="WhatsApp Configuration" description="The number to send from, the language and an approved template.">
            <SenderSetupFields
              screen="customize"
              idPrefix="customize"
              numberId={numberId}
              onNumberChange={handleNumberChange}
              language={language}
              onLanguageChange={handleLanguageChange}
              templateName={template?.name ?? ''}
              onTemplateChange={handleTemplateChange}
              disabled={sending}
            />
            <TextField
              id="customize-campaign-name"
              label="Campaign Name (optional)"
              value={campaignName}
              maxLength={200}
              disabled={sending}
              onChange={(event) => dispatch({ type: 'campaignNamed', name: event.target.value })}
            />
            {fromContacts ? null : (
              <label className="mt-3 flex items-center gap-2 text-sm">
                <input type="checkbox" data-testid="customize-remember-columns" checked={rememberColumns} disabled={sending} onChange={(event) => setRememberColumns(event.target.checked)} />
                Remember these columns: keep each row&apos;s mapped columns on its contact
              </label>
            )}
          </StepCard>

          <StepCard
            step={2}
            title={fromContacts ? 'Contacts' : 'Upload Spreadsheet'}
            description={
              fromContacts
                ? 'A segment or tagged contacts; each variable from an attribute, with a fallback, or a fixed text.'
                : 'An Excel or CSV file with one row per recipient, read on this computer.'
            }
          >
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">{sheetText.modeLabel}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {CUSTOMIZE_SOURCES.map((option) => (
                  <label key={option} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="customize-source"
                      value={option}
                      checked={recipientSource === option}
                      disabled={busy}
                      onChange={() => setRecipientSource(option)}
                      className="size-4 accent-emerald-600"
                    />
                    {option === 'spreadsheet' ? sheetText.modeSpreadsheet : sheetText.modeContacts}
                  </label>
                ))}
              </div>
            </fieldset>
            {fromContacts ? (
              detailsError ? (
                <Alert tone="error">
                  <p>{detailsError}</p>
                </Alert>
              ) : (
                <ContactsAudienceSend
                  idPrefix="customize"
                  numberId={numberId}
                  language={language}
                  template={template}
                  variables={details.isSuccess ? variables : null}
                  campaignName={campaignName}
                  headerImage={null}
                  imageMissing={false}
                  schedule={schedule}
                  onScheduleChange={setSchedule}
                  disabled={sending}
                  initial={audienceStart}
                  onSent={() => setSchedule(SEND_NOW)}
                />
              )
            ) : (
              <>
                <SheetDropZone sheet={sheet} inputTestId="customize-file-input" disabled={sending} />
                {summary ? (
                  <SheetSummaryView
                    idPrefix="customize"
                    summary={summary}
                    recipientColumn={recipientColumn}
                    recipientInvalid={mappingFieldInvalid(RECIPIENT_FIELD, recipientColumn, sheet.state.choices, sendTried)}
                    onRecipientColumnChange={handleColumnChange}
                    disabled={busy}
                  />
                ) : null}
              </>
            )}
          </StepCard>

          {fromContacts ? null : (
            <>
              <StepCard step={3} title="Map Variables" description="Choose the column that fills each template variable.">
                {!template ? (
                  <p className="text-sm text-slate-500 dark:text-slate-400">Choose a template first.</p>
                ) : details.isPending ? (
                  <Spinner label="Loading template variables" />
                ) : detailsError ? (
                  <RetryAlert message={detailsError} onRetry={() => void details.refetch()} />
                ) : (
                  <VariablesOrHint variables={variables} summary={summary}>
                    {summary && mapping ? (
                      <SheetVariableMapping
                        idPrefix="customize"
                        variables={mappingVars}
                        header={summary.header}
                        mapping={mapping}
                        invalid={(variable) => mappingFieldInvalid(variable, mappings[variable] ?? '', sheet.state.choices, sendTried)}
                        autoMapped={autoMapped}
                        onChange={handleMappingChange}
                        disabled={busy}
                      />
                    ) : null}
                  </VariablesOrHint>
                )}
              </StepCard>

              <StepCard step={4} title="Preview and Send" description="Check the first messages, then send to every row.">
                <ScheduleControl idPrefix="customize" value={schedule} onChange={setSchedule} disabled={sending} />
                {notice ? (
                  <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="send-timing-note">
                    {notice}
                  </p>
                ) : null}
                {summary && mapping ? <SheetCheckPanel sheet={sheet} mapping={mapping} canCheck={sendProblem() === null} disabled={sending} /> : null}
                <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <Button variant="outline" onClick={handleGeneratePreview} disabled={busy || !template || !summary}>
                    <Eye aria-hidden="true" />
                    {ui.generatePreview}
                  </Button>
                  <Button size="lg" onClick={() => void handleSend()} disabled={busy || rowCount === 0} data-testid="customize-send">
                    {sending ? <Spinner className="text-current" /> : scheduled ? <CalendarClock aria-hidden="true" /> : <Send aria-hidden="true" />}
                    {scheduled ? scheduledSendLabel(rowCount) : customSendLabel(rowCount)}
                  </Button>
                </div>
                {bulk ? <Alert tone="info">{ui.bulkNote}</Alert> : null}
                {preview ? <GeneratedPreview rows={preview} /> : null}
              </StepCard>
            </>
          )}
        </div>

        <aside className="flex flex-col gap-4" aria-label="Message overview">
          <LivePreviewCard template={template} values={firstRowValues} description="Filled from the first row of your spreadsheet." />
          <TipsCard />
        </aside>
      </div>

      <CostPreviewDialog
        open={costRequest !== null}
        onOpenChange={(open) => (open ? undefined : setCostRequest(null))}
        request={costRequest}
        estimate={{ recipients: rowCount, category: template?.category ?? '', pricePerMessage: price }}
        firstRecipient={firstRecipient ? { recipient: firstRecipient.validRecipient ? `+${firstRecipient.recipient}` : firstRecipient.recipient, text: firstRecipient.text } : null}
        title="Confirm Personalised Campaign"
        cancelLabel={ui.reviewDetails}
        confirmLabel={costRequest?.body.scheduledAt ? ui.scheduleCampaign : ui.sendCampaign}
        scheduledAt={costRequest?.body.scheduledAt ?? null}
        onConfirm={handleConfirm}
        isSending={sending}
      />

      <CampaignResultDialog open={submission.dialogOpen} onOpenChange={submission.setDialogOpen} outcome={submission.outcome} />
    </div>
  );
}
