import { ArrowLeft, CalendarClock, Eye, LogIn, Send } from 'lucide-react';
import { useCallback, useReducer, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { unmappedVariable } from '@shared/sheetRows';
import type { TTemplate } from '@shared/types';
import { errorText, toApiError } from '../../api/client';
import { sendingApi, type CustomSendBody, type SendPreviewRequest } from '../../api/sending';
import { CampaignResultDialog } from '../../components/sending/CampaignResultDialog';
import { CostPreviewDialog } from '../../components/sending/CostPreviewDialog';
import { GeneratedPreview, SheetOverview, SpreadsheetPicker, VariableMapping } from '../../components/sending/CustomizeSections';
import { LivePreviewCard } from '../../components/sending/LivePreviewCard';
import { ScheduleControl } from '../../components/sending/ScheduleControl';
import { TipsCard } from '../../components/sending/QuickSendSidePanel';
import { SenderSetupFields } from '../../components/sending/SenderSetupFields';
import { SetupProgress } from '../../components/sending/SetupProgress';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useSendPricing, useTemplateDetails } from '../../hooks/useSending';
import { useSendSubmission } from '../../hooks/useSendSubmission';
import { sendFailure } from '../../lib/sending/campaign';
import {
  allVariablesMapped,
  customizeFormReducer,
  customizeProgress,
  customPreview,
  customSendLabel,
  effectiveMappings,
  effectiveRecipientColumn,
  initialCustomizeForm,
  mappingsPayload,
  uploadFailure,
} from '../../lib/sending/customize';
import { resolveSchedule, scheduledAcceptedText, scheduledNotice, scheduledSendLabel, SEND_NOW, type ScheduleChoice } from '../../lib/sending/schedule';
import { isBulkSend, priceFor } from '../../lib/sending/setup';
import { readParsedSheet, spreadsheetFileError, type ParsedSheet } from '../../lib/sending/spreadsheet';
import { useSessionStore } from '../../stores/sessionStore';
import { StepCard } from '../../components/sending/StepCard';

const s = messages.sending;
const ui = messages.sendScreens;
const NO_COLUMNS: readonly string[] = [];

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
  const [costRequest, setCostRequest] = useState<SendPreviewRequest | null>(null);
  // Send now, or at a time in IST (issue 15); back to "now" once a send is accepted.
  const [schedule, setSchedule] = useState<ScheduleChoice>(SEND_NOW);
  // The dialog waits for the answer: the rows are cleared only once the send is accepted.
  const submission = useSendSubmission<null>(null);
  const sending = submission.processing;
  const { numberId, language, template, campaignName, uploadProgress, loaded, preview } = form;

  const details = useTemplateDetails(template?.name ?? '', language);
  const variables = details.data?.variables.map((variable) => variable.index) ?? NO_COLUMNS;
  const sheet = loaded?.sheet ?? null;
  const columns = sheet?.columns ?? NO_COLUMNS;
  const rows = sheet?.rows ?? [];
  const recipientColumn = sheet ? effectiveRecipientColumn(form.columnChoice, columns, rows) : '';
  const mappings = effectiveMappings(form.mappingChoices, variables, columns);
  const mapped = details.isSuccess && allVariablesMapped(variables, mappings);
  const rowCount = rows.length;
  const bulk = isBulkSend(rowCount);
  const price = priceFor(pricing, template?.category);

  const progress = customizeProgress({
    hasNumber: numberId !== '',
    hasTemplate: template !== null,
    hasFile: sheet !== null,
    hasRecipientColumn: recipientColumn !== '',
    variablesMapped: mapped,
  });

  // The live preview follows the first row, so that it reads like a real message.
  const firstRowValues = template && sheet ? (customPreview(rows, recipientColumn || (columns[0] ?? ''), variables, mappings, template, 1)[0]?.values ?? {}) : {};

  const handleNumberChange = useCallback((next: string) => dispatch({ type: 'numberChosen', numberId: next }), []);
  const handleLanguageChange = useCallback((next: string) => dispatch({ type: 'languageChosen', language: next }), []);
  const handleTemplateChange = useCallback((next: TTemplate | null) => dispatch({ type: 'templateChosen', template: next }), []);
  const clearFile = () => dispatch({ type: 'fileCleared' });

  const handleFile = async (file: File, input: HTMLInputElement) => {
    const problem = spreadsheetFileError(file);
    if (problem) {
      input.value = '';
      toast.error(problem);
      return;
    }
    dispatch({ type: 'uploadStarted', file });
    const fail = (failure: { title: string; description: string }) => {
      // Spec §8: the file input is cleared after a failed upload.
      input.value = '';
      dispatch({ type: 'uploadFailed' });
      toast.error(failure.title, { description: failure.description });
    };
    let body: unknown;
    try {
      body = await sendingApi.parseExcel(file, (progress) => dispatch({ type: 'uploadProgressed', progress }));
    } catch (caught) {
      fail(uploadFailure(toApiError(caught)));
      return;
    }
    let parsed: ParsedSheet;
    try {
      parsed = readParsedSheet(body);
    } catch (caught) {
      fail({ title: s.uploadFailed, description: caught instanceof Error ? caught.message : s.invalidResponseFormat });
      return;
    }
    if (parsed.rows.length === 0) {
      fail({ title: s.uploadFailed, description: s.noRecipientsInFile });
      return;
    }
    dispatch({ type: 'sheetLoaded', file, sheet: parsed });
    toast.success(fillMessage(ui.sheetLoaded, { count: formatIndianNumber(parsed.rows.length), file: file.name }));
  };

  const handleColumnChange = (column: string) => dispatch({ type: 'recipientColumnChosen', column });
  const handleMappingChange = (variable: string, column: string) => dispatch({ type: 'variableMapped', variable, column });

  const handleGeneratePreview = () => {
    if (!template || !sheet || !recipientColumn) {
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
    if (!numberId || !template || !loaded || !recipientColumn) return s.customMissingFields;
    if (rowCount === 0) return s.noRecipientsInFile;
    if (!details.isSuccess) return s.customMissingFields;
    const unmapped = unmappedVariable(variables, mappings);
    if (unmapped !== null) return fillMessage(ui.variableUnmapped, { name: unmapped });
    return null;
  };

  const handleSend = () => {
    const problem = sendProblem();
    if (problem || !template) {
      toast.error(problem ?? s.customMissingFields);
      return;
    }
    const timing = resolveSchedule(schedule);
    if (!timing.ok) {
      toast.error(timing.problem);
      return;
    }
    // The preview is the dry run of this very send: every row, screened as acceptance will.
    setCostRequest({ kind: 'custom', body: customSendBody(template, timing.scheduledAt) });
  };

  const customSendBody = (chosen: TTemplate, scheduledAt: string | undefined): CustomSendBody => ({
    templateName: chosen.name,
    language,
    phoneNumberId: numberId,
    recipientColumn,
    variableMappings: mappingsPayload(mappings, variables),
    data: rows,
    ...(campaignName.trim() ? { campaignName: campaignName.trim() } : {}),
    ...(scheduledAt ? { scheduledAt } : {}),
  });

  const handleConfirm = () => {
    if (!template || !loaded || sending) return;
    // The confirmation may have stayed open long enough for the chosen time to come too close.
    const timing = resolveSchedule(schedule);
    if (!timing.ok) {
      toast.error(timing.problem);
      setCostRequest(null);
      return;
    }
    const body = customSendBody(template, timing.scheduledAt);
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
        setSchedule(SEND_NOW);
      },
    });
  };

  const firstRecipient = template && sheet && recipientColumn ? customPreview(rows, recipientColumn, variables, mappings, template, 1)[0] : undefined;
  const detailsError = details.isError ? errorText(details.error, s.templatesLoadFailed) : '';
  const busy = sending || uploadProgress !== null;
  const scheduled = schedule.mode === 'later';
  const notice = scheduled ? scheduledNotice(schedule.local) : '';

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
          </StepCard>

          <StepCard step={2} title="Upload Spreadsheet" description="An Excel or CSV file with one row per recipient.">
            <SpreadsheetPicker
              file={loaded?.file ?? form.uploading}
              uploadProgress={uploadProgress}
              onFile={(file, input) => void handleFile(file, input)}
              onClear={clearFile}
              disabled={sending}
            />
            {loaded ? (
              <SheetOverview
                sheet={loaded.sheet}
                fileName={loaded.file.name}
                recipientColumn={recipientColumn}
                onRecipientColumnChange={handleColumnChange}
                disabled={sending}
              />
            ) : null}
          </StepCard>

          <StepCard step={3} title="Map Variables" description="Choose the column that fills each template variable.">
            {!template ? (
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
              <VariableMapping variables={variables} columns={columns} mappings={mappings} onChange={handleMappingChange} disabled={sending} />
            )}
          </StepCard>

          <StepCard step={4} title="Preview and Send" description="Check the first messages, then send to every row.">
            <ScheduleControl idPrefix="customize" value={schedule} onChange={setSchedule} disabled={sending} />
            {notice ? (
              <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="send-timing-note">
                {notice}
              </p>
            ) : null}
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <Button variant="outline" onClick={handleGeneratePreview} disabled={busy || !template || !sheet}>
                <Eye aria-hidden="true" />
                {ui.generatePreview}
              </Button>
              <Button size="lg" onClick={handleSend} disabled={busy || rowCount === 0} data-testid="customize-send">
                {sending ? <Spinner className="text-current" /> : scheduled ? <CalendarClock aria-hidden="true" /> : <Send aria-hidden="true" />}
                {scheduled ? scheduledSendLabel(rowCount) : customSendLabel(rowCount)}
              </Button>
            </div>
            {bulk ? <Alert tone="info">{ui.bulkNote}</Alert> : null}
            {preview ? <GeneratedPreview rows={preview} /> : null}
          </StepCard>
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
