import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';

/**
 * A react-hook-form form validated by a shared zod schema, the one the server runs on the same
 * request. Errors show on submit, focus goes to the first invalid field, and a field's error goes
 * away as soon as that field is edited (spec 000 §5) rather than being re-checked on every key.
 *
 * `checkWhileTyping` is for the few screens whose spec checks a field as it is typed (provider
 * settings): an edited field is checked on every change instead.
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  { checkWhileTyping = false }: { checkWhileTyping?: boolean } = {},
): UseFormReturn<Input, unknown, Output> {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: checkWhileTyping ? 'onChange' : 'onSubmit',
    reValidateMode: checkWhileTyping ? 'onChange' : 'onSubmit',
    shouldFocusError: true,
  });
  const { subscribe, clearErrors } = form;
  useEffect(() => {
    // Checked while typing, the check itself says whether the edited field is still wrong.
    if (checkWhileTyping) return undefined;
    return subscribe({
      formState: { values: true },
      callback: ({ name, type }) => {
        // Only a person's edit clears it: `type` is set for change events, not for reset or setValue.
        if (name && type) clearErrors(name as Path<Input>);
      },
    });
  }, [subscribe, clearErrors, checkWhileTyping]);
  return form;
}

/**
 * Shows the server's per-field messages (already texts of the catalogue) under their fields and
 * moves focus to the first of them, as a failed check in the browser does.
 */
export function showServerFieldErrors<Input extends FieldValues, Output>(
  form: UseFormReturn<Input, unknown, Output>,
  fieldErrors: Record<string, string>,
): void {
  const known = Object.keys(form.getValues());
  const fields = Object.entries(fieldErrors).filter(([field]) => known.includes(field));
  fields.forEach(([field, message], index) => {
    form.setError(field as Path<Input>, { type: 'server', message }, { shouldFocus: index === 0 });
  });
}

/**
 * A field typed as text whose value the shared schema checks after `read` turns it into what the
 * request carries (a number of credits from "1,000"); the schema's messages stay the ones shown.
 */
export function textReadInto<Output>(rule: z.ZodType<Output>, read: (text: string) => unknown) {
  return z.string().transform((text, context) => {
    const result = rule.safeParse(read(text));
    if (result.success) return result.data;
    copyIssues(result.error, context);
    return z.NEVER;
  });
}

/** Carries a shared schema's messages (and their fields) into the form schema that ran it. */
export function copyIssues(error: z.ZodError, context: z.RefinementCtx): void {
  for (const issue of error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

/**
 * A form of text fields checked on submit by a shared schema whose own input is looser (it
 * also takes null or leaves fields out): the fields stay strings, the schema's output is sent.
 */
export function textFieldsCheckedBy<const Field extends string, Output>(fields: readonly Field[], rule: z.ZodType<Output>) {
  const shape = Object.fromEntries(fields.map((field) => [field, z.string()])) as Record<Field, z.ZodString>;
  return z.object(shape).transform((form, context) => {
    const result = rule.safeParse(form);
    if (result.success) return result.data;
    copyIssues(result.error, context);
    return z.NEVER;
  });
}
