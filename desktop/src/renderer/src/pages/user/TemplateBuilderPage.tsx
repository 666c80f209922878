import { ArrowLeft, Save, Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useFieldArray, useWatch, type FieldErrors as FormErrors, type Path } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { TEMPLATE_LIMITS } from '@shared/constants';
import { EDITABLE_TEMPLATE_STATUSES, TEMPLATE_CATEGORIES, TEMPLATE_CATEGORY_LABELS, TEMPLATE_LANGUAGES, type TemplateCategory } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { errorText, serverFieldErrors, toApiError } from '../../api/client';
import {
  AuthenticationSection,
  BodySection,
  ButtonsSection,
  CharacterCount,
  FooterSection,
  HeaderSection,
  type SectionProps,
} from '../../components/templates/BuilderSections';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { MessagePreview } from '../../components/templates/MessagePreview';
import { Alert, RetryAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FieldShell, TextField } from '../../components/ui/form-field';
import { NativeSelect } from '../../components/ui/native-select';
import { Spinner } from '../../components/ui/spinner';
import { useProtectedMediaUrl } from '../../hooks/useProtectedMediaUrl';
import { useSaveTemplate, useTemplate } from '../../hooks/useTemplates';
import { headerMediaError, isMediaHeaderType } from '../../lib/headerMedia';
import { editedFields, emptyTemplateForm, keepsStoredHeader, newButton, templateFormFrom, type BuilderEdit, type TemplateForm } from '../../lib/templateBuilder';
import { formFieldOf, requestFieldsOf, templateBuilderFormSchema } from '../../lib/templateBuilderForm';
import { formPreview } from '../../lib/templateBuilderPreview';
import { validateTemplateForm, type TemplateSubmission } from '../../lib/templatePayload';

const t = messages.templates;
const LIST_PATH = '/user/templates';

type BuilderMode = 'create' | 'edit';
type SaveAction = 'draft' | 'submit';

/** Each error's message by its path in the form (`buttons.2`, `buttons.root`). */
function messagesByPath(errors: FormErrors<TemplateForm>): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object') return;
    const entry = node as Record<string, unknown>;
    if (typeof entry.message === 'string' && entry.message !== '' && path !== '') found[path] = entry.message;
    for (const [key, child] of Object.entries(entry)) {
      if (key !== 'ref' && key !== 'message' && key !== 'type' && key !== 'types') walk(child, path ? `${path}.${key}` : key);
    }
  };
  walk(errors, '');
  return found;
}

/** A chosen header file and the object URL the preview shows it through. */
interface ChosenMedia {
  file: File;
  url: string;
}

function BackLink() {
  return (
    <Button variant="ghost" size="sm" asChild className="self-start">
      <Link to={LIST_PATH}>
        <ArrowLeft aria-hidden="true" />
        Back to Templates
      </Link>
    </Button>
  );
}

function Refusal({ title, detail }: { title: string; detail?: string }) {
  return (
    <div className="flex flex-col gap-4">
      <BackLink />
      <Card>
        <CardContent className="flex flex-col items-start gap-3 p-6">
          <Alert tone="warning">
            <p className="font-medium">{title}</p>
            {detail ? <p className="mt-1">{detail}</p> : null}
          </Alert>
          <Button asChild variant="outline">
            <Link to={LIST_PATH}>Back to Templates</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

/** The preview column: the chosen file through its object URL, a stored one fetched with the session. */
function PreviewPanel({ form, chosen }: { form: TemplateForm; chosen: ChosenMedia | null }) {
  const preview = formPreview(form);
  const stored = keepsStoredHeader(form) && form.storedHeader && form.storedHeader.type !== 'document' ? form.storedHeader.url : null;
  const storedMedia = useProtectedMediaUrl(stored);
  const chosenUrl = chosen && chosen.file === form.headerFile ? chosen.url : null;
  const media = isMediaHeaderType(form.headerType)
    ? { src: chosenUrl ?? storedMedia.src, isLoading: !chosenUrl && storedMedia.isLoading }
    : { src: null };
  return (
    <Card className="lg:sticky lg:top-20">
      <CardHeader>
        <CardTitle className="text-base">Preview</CardTitle>
        <CardDescription>How recipients will see the message, with your examples filled in.</CardDescription>
      </CardHeader>
      <CardContent>
        <MessagePreview preview={preview} media={media} />
      </CardContent>
    </Card>
  );
}

function TemplateBuilder({
  mode,
  initial,
  templateId,
  rejectionReason = null,
}: {
  mode: BuilderMode;
  initial: TemplateForm;
  templateId: number | null;
  /** Shown while editing a rejected template, so the fix can be made against the reviewer's words. */
  rejectionReason?: string | null;
}) {
  const navigate = useNavigate();
  const [action, setAction] = useState<SaveAction | null>(null);
  // Which save button was pressed, read by the form's schema when it checks the values.
  const pressed = useRef<SaveAction>('draft');
  const builder = useSchemaForm<TemplateForm, TemplateSubmission>(
    // eslint-disable-next-line react-hooks/refs -- the getter is called when a save is checked (an event), never while rendering
    useMemo(() => templateBuilderFormSchema(() => pressed.current === 'submit'), []),
    initial,
  );
  const { control, getValues, setValue, setError, clearErrors, handleSubmit } = builder;
  const buttonRows = useFieldArray({ control, name: 'buttons' });
  // Every value, watched: the preview and the sections follow each keystroke.
  const form = useWatch({ control }) as TemplateForm;
  const errors = requestFieldsOf(messagesByPath(builder.formState.errors));
  const [chosen, setChosen] = useState<ChosenMedia | null>(null);
  const chosenUrl = useRef<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSaveTemplate(templateId);
  const busy = save.isPending;
  const isAuthentication = form.category === 'AUTHENTICATION';

  // The preview's object URL is made when a file is chosen and let go when another replaces it
  // or the screen closes, so the file is not kept in memory after that.
  useEffect(() => {
    const urls = chosenUrl;
    return () => {
      if (urls.current) URL.revokeObjectURL(urls.current);
    };
  }, []);

  const clearError = (field: string) => clearErrors(formFieldOf(field) as Path<TemplateForm>);

  /** Writes what an edit changes into the form; a button's own fields are set in place, so its row keeps focus. */
  const dispatch = (edit: BuilderEdit) => {
    const changed = editedFields(getValues(), edit);
    for (const [field, value] of Object.entries(changed)) {
      if (field === 'buttons' && edit.type === 'updateButton') {
        for (const [key, part] of Object.entries(edit.patch)) setValue(`buttons.${edit.index}.${key}` as Path<TemplateForm>, part, { shouldDirty: true });
      } else if (field === 'buttons') {
        buttonRows.replace(value as TemplateForm['buttons']);
      } else {
        setValue(field as keyof TemplateForm, value as never, { shouldDirty: true });
      }
    }
  };

  const addButton = (optOut: boolean) => {
    const row = newButton(getValues(), optOut);
    if (!row) return;
    buttonRows.append(row, { shouldFocus: false });
    setValue('nextButtonKey', row.key + 1);
  };

  const removeButton = (index: number) => {
    const count = getValues('buttons').length;
    buttonRows.remove(index);
    // Rows below move up a place, so their messages (which name the row) no longer match them.
    for (let row = index; row < count; row += 1) clearErrors(`buttons.${row}`);
  };

  const handleFileChosen = (file: File | null, input: HTMLInputElement | null) => {
    if (file && isMediaHeaderType(form.headerType)) {
      const problem = headerMediaError(file, form.headerType);
      if (problem) {
        // The rejected file leaves the native input too, so choosing it again fires a change.
        if (input) input.value = '';
        setError('headerFile', { type: 'file', message: problem });
        toast.error(problem);
        return;
      }
    }
    if (chosenUrl.current) URL.revokeObjectURL(chosenUrl.current);
    chosenUrl.current = file ? URL.createObjectURL(file) : null;
    setChosen(file && chosenUrl.current ? { file, url: chosenUrl.current } : null);
    if (!file && input === null) {
      const native = formRef.current?.querySelector<HTMLInputElement>('#template-header-file');
      if (native) native.value = '';
    }
    dispatch({ type: 'setHeaderFile', file });
  };

  const focusFirstError = () => {
    // After React has drawn the messages: the first marked control in screen order.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const send = async (saveAction: SaveAction, submission: TemplateSubmission) => {
    const submit = saveAction === 'submit';
    setAction(saveAction);
    try {
      const response = await save.mutateAsync(submission);
      const fallback = submit ? t.submitted : mode === 'edit' ? t.updated : t.savedDraft;
      toast.success(response.message || fallback);
      navigate(LIST_PATH);
    } catch (caught) {
      const fieldErrors = serverFieldErrors(caught);
      // The name is taken (409): say so at the name, whatever field the server named.
      if (toApiError(caught).status === 409) fieldErrors.name = errorText(caught, t.nameTaken);
      for (const [field, message] of Object.entries(fieldErrors)) {
        setError(formFieldOf(field) as Path<TemplateForm>, { type: 'server', message });
      }
      toast.error(errorText(caught, mode === 'edit' ? t.updateFailed : t.createFailed));
      focusFirstError();
    } finally {
      setAction(null);
    }
  };

  const handleSave = (saveAction: SaveAction) => {
    pressed.current = saveAction;
    clearErrors();
    void handleSubmit(
      (submission) => send(saveAction, submission),
      () => {
        // Spec 002: every problem at once, joined by commas, in a toast.
        const validation = validateTemplateForm(getValues(), saveAction === 'submit');
        if (!validation.ok) toast.error(validation.summary);
        focusFirstError();
      },
    )();
  };

  const sectionProps: SectionProps = { form, dispatch, errors, clearError, disabled: busy, rowKeys: buttonRows.fields.map((row) => row.id), addButton, removeButton };
  const draftLabel = mode === 'edit' ? 'Save Changes' : 'Save Draft';
  const submitLabel = mode === 'edit' ? 'Save & Submit' : 'Create & Submit';
  const languages: { code: string; name: string }[] = TEMPLATE_LANGUAGES.some((l) => l.code === form.language)
    ? [...TEMPLATE_LANGUAGES]
    : [...TEMPLATE_LANGUAGES, { code: form.language, name: form.language }];

  return (
    <div className="flex flex-col gap-4">
      <BackLink />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <form
          ref={formRef}
          noValidate
          aria-label={mode === 'edit' ? 'Edit template' : 'Create template'}
          className="flex flex-col gap-4"
          // Saving is a choice between two actions, so Enter in a field does not pick one.
          onSubmit={(event: FormEvent) => event.preventDefault()}
        >
          {rejectionReason ? (
            <Alert tone="warning">
              <p>
                <span className="font-medium">Rejected: </span>
                <span className="break-words">{rejectionReason}</span>
              </p>
              <p className="mt-1">Saving changes returns the template to draft; Save &amp; Submit sends it for review again.</p>
            </Alert>
          ) : null}
          <Card>
            <CardHeader>
              <CardTitle>{mode === 'edit' ? 'Edit Template' : 'Create Template'}</CardTitle>
              <CardDescription>
                {mode === 'edit'
                  ? 'Change the template and save it as a draft, or save and submit it for review.'
                  : 'Build a message template, then save it as a draft or submit it for review.'}
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              <div className="flex flex-col gap-1">
                <TextField
                  id="template-name"
                  label="Template Name"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={TEMPLATE_LIMITS.nameMax}
                  value={form.name}
                  disabled={busy}
                  error={errors.name}
                  hint="Lowercase letters, numbers and underscores; other characters become underscores as you type."
                  placeholder="order_update"
                  className="font-mono"
                  onChange={(e) => {
                    dispatch({ type: 'setName', value: e.target.value });
                    clearError('name');
                  }}
                />
                <div className="flex justify-end">
                  <CharacterCount value={form.name} max={TEMPLATE_LIMITS.nameMax} />
                </div>
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <FieldShell
                  id="template-category"
                  label="Category"
                  error={errors.category}
                  hint={mode === 'edit' && !isAuthentication ? 'Authentication templates are created new, not converted.' : undefined}
                >
                  <NativeSelect
                    id="template-category"
                    value={form.category}
                    disabled={busy}
                    invalid={Boolean(errors.category)}
                    onChange={(e) => {
                      dispatch({ type: 'setCategory', value: e.target.value as TemplateCategory });
                      clearErrors();
                    }}
                  >
                    {TEMPLATE_CATEGORIES.map((category) => (
                      // PUT /api/templates/:id takes marketing and utility only.
                      <option key={category} value={category} disabled={mode === 'edit' && category === 'AUTHENTICATION'}>
                        {TEMPLATE_CATEGORY_LABELS[category]}
                      </option>
                    ))}
                  </NativeSelect>
                </FieldShell>
                <FieldShell id="template-language" label="Language" error={errors.language}>
                  <NativeSelect
                    id="template-language"
                    value={form.language}
                    disabled={busy}
                    invalid={Boolean(errors.language)}
                    onChange={(e) => {
                      dispatch({ type: 'set', field: 'language', value: e.target.value });
                      clearError('language');
                    }}
                  >
                    {languages.map((language) => (
                      <option key={language.code} value={language.code}>
                        {language.name} ({language.code})
                      </option>
                    ))}
                  </NativeSelect>
                </FieldShell>
              </div>
            </CardContent>
          </Card>

          {isAuthentication ? (
            <AuthenticationSection {...sectionProps} />
          ) : (
            <>
              <HeaderSection {...sectionProps} onFileChosen={handleFileChosen} />
              <BodySection {...sectionProps} />
              <FooterSection {...sectionProps} />
              <ButtonsSection {...sectionProps} />
            </>
          )}

          <Card>
            <CardContent className="flex flex-col-reverse gap-2 p-4 sm:flex-row sm:items-center sm:justify-end">
              {isAuthentication ? (
                <p className="text-sm text-slate-500 sm:mr-auto dark:text-slate-400">
                  Authentication templates are submitted for review straight away.
                </p>
              ) : null}
              <Button variant="ghost" asChild>
                <Link to={LIST_PATH}>Cancel</Link>
              </Button>
              {isAuthentication ? null : (
                <Button variant="outline" disabled={busy} onClick={() => handleSave('draft')}>
                  {action === 'draft' ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
                  {draftLabel}
                </Button>
              )}
              <Button disabled={busy} onClick={() => handleSave('submit')}>
                {action === 'submit' ? <Spinner className="text-current" /> : <Send aria-hidden="true" />}
                {submitLabel}
              </Button>
            </CardContent>
          </Card>
        </form>
        <PreviewPanel form={form} chosen={chosen} />
      </div>
    </div>
  );
}

function isEditable(template: TTemplate): boolean {
  return (EDITABLE_TEMPLATE_STATUSES as readonly string[]).includes(template.status);
}

function EditTemplate({ id }: { id: number }) {
  const query = useTemplate(id);
  if (!Number.isInteger(id) || id <= 0) return <Refusal title={t.notFound} />;
  if (query.isPending) {
    return (
      <div className="flex justify-center p-10">
        <Spinner className="size-6" label="Loading template" />
      </div>
    );
  }
  if (query.isError) {
    const error = toApiError(query.error);
    if (error.status === 404) return <Refusal title={t.notFound} detail="It may have been deleted." />;
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        <RetryAlert message={errorText(query.error, t.fetchFailed)} onRetry={() => void query.refetch()} busy={query.isFetching} />
      </div>
    );
  }
  const template = query.data;
  if (!isEditable(template)) return <Refusal title={t.notEditable} detail={`"${template.name}" cannot be changed in its current status.`} />;
  if (template.category === 'AUTHENTICATION') {
    // WhatsApp writes authentication texts; the edit call takes marketing and utility only.
    return (
      <Refusal
        title="Authentication templates cannot be edited"
        detail="Submit it again from the template list, or delete it and create a new one."
      />
    );
  }
  return (
    <TemplateBuilder
      key={template.id}
      mode="edit"
      initial={templateFormFrom(template)}
      templateId={template.id}
      rejectionReason={template.status === 'REJECTED' ? template.rejectionReason : null}
    />
  );
}

/** /user/templates/create and /user/templates/:id/edit (spec 002 "Template create and edit"). */
export function TemplateBuilderPage() {
  const { id } = useParams();
  if (id === undefined) return <TemplateBuilder mode="create" initial={emptyTemplateForm()} templateId={null} />;
  return <EditTemplate id={Number(id)} />;
}
