import { z } from 'zod';
import { CONTACTS } from '@shared/constants';
import { messages } from '@shared/messages';
import type { TContact, TContactAttributeDefinition, TContactInput, TContactPatch } from '@shared/schemas/contacts';
import { ZContactInput } from '@shared/schemas/contacts';
import { FormTextField, FormTextareaField } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { serverFieldErrors } from '../../api/client';
import { Button } from '../ui/button';
import { splitTags } from '../../lib/contacts/contactImport';

const s = messages.contactScreens;

/** The form's fields as typed; checked by the shared contact schema once turned into a request. */
const ZContactFormValues = z.object({
  phone: z.string(),
  name: z.string(),
  tags: z.string(),
  attributes: z.record(z.string(), z.string()),
  optInSource: z.string(),
  optInEvidence: z.string(),
});
type ContactFormValues = z.infer<typeof ZContactFormValues>;

/** The typed fields as the contact request, every issue reported on the field it came from. */
const ZContactForm = ZContactFormValues.transform((values, context) => {
  const attributes = Object.fromEntries(Object.entries(values.attributes).filter(([, value]) => value.trim() !== '').map(([name, value]) => [name, value.trim()]));
  const candidate = {
    phone: values.phone,
    name: values.name.trim() === '' ? null : values.name,
    attributes,
    tags: splitTags(values.tags),
    opt_in: values.optInSource.trim() === '' ? null : { source: values.optInSource, ...(values.optInEvidence.trim() ? { evidence: values.optInEvidence.trim() } : {}) },
  };
  const checked = ZContactInput.safeParse(candidate);
  if (checked.success) return checked.data;
  const fieldOf: Record<string, keyof ContactFormValues> = { phone: 'phone', name: 'name', tags: 'tags', attributes: 'attributes', opt_in: 'optInSource' };
  for (const issue of checked.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: [fieldOf[String(issue.path[0])] ?? 'phone'] });
  }
  return z.NEVER;
});

export interface ContactFormProps {
  /** The contact being edited; absent to add one. */
  contact?: TContact;
  attributes: readonly TContactAttributeDefinition[];
  busy: boolean;
  /** A new contact, or the changes to one (attributes emptied are removed). */
  onSubmit(input: TContactInput, patch: TContactPatch): Promise<void>;
  onCancel(): void;
}

/** Adding or editing a contact: number (new only), name, tags, the defined attributes and the opt-in record. */
export function ContactForm({ contact, attributes, busy, onSubmit, onCancel }: ContactFormProps) {
  const form = useSchemaForm(ZContactForm, {
    phone: contact?.phone ?? '',
    name: contact?.name ?? '',
    tags: contact?.tags.join(', ') ?? '',
    attributes: Object.fromEntries(attributes.map((a) => [a.name, contact?.attributes[a.name] === undefined ? '' : String(contact.attributes[a.name])])),
    optInSource: contact?.opt_in?.source ?? '',
    optInEvidence: contact?.opt_in?.evidence ?? '',
  });
  const handleSubmit = form.handleSubmit(async (input) => {
    // Attributes emptied on the form are removed from the contact (null), the others replaced.
    const cleared = Object.fromEntries(attributes.filter((a) => contact?.attributes[a.name] !== undefined && input.attributes?.[a.name] === undefined).map((a) => [a.name, null]));
    const patch: TContactPatch = {
      name: input.name ?? null,
      tags: input.tags ?? [],
      attributes: { ...cleared, ...(input.attributes ?? {}) },
      opt_in: input.opt_in ?? null,
    };
    try {
      await onSubmit(input, patch);
    } catch (error) {
      showServerFieldErrors(form, serverFieldErrors(error));
    }
  });
  return (
    <form className="grid gap-4" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {contact ? null : <FormTextField control={form.control} name="phone" label={s.phoneLabel} inputMode="tel" autoComplete="off" />}
        <FormTextField control={form.control} name="name" label={s.nameLabel} maxLength={CONTACTS.nameMaxLength} autoComplete="off" />
        <FormTextField control={form.control} name="tags" label={s.tagsLabel} hint={s.tagsHint} autoComplete="off" />
      </div>
      {attributes.length > 0 ? (
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold">{s.attributesLabel}</legend>
          {attributes.map((attribute) => (
            <FormTextField
              key={attribute.name}
              control={form.control}
              name={`attributes.${attribute.name}`}
              label={`${attribute.name} (${s.attributeTypes[attribute.type]})`}
              autoComplete="off"
            />
          ))}
        </fieldset>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField control={form.control} name="optInSource" label={s.optInSourceLabel} hint={s.optInSourceHint} maxLength={CONTACTS.optInSourceMaxLength} autoComplete="off" />
        <FormTextareaField control={form.control} name="optInEvidence" label={s.optInEvidenceLabel} rows={2} maxLength={CONTACTS.optInEvidenceMaxLength} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {s.save}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          {s.cancel}
        </Button>
      </div>
    </form>
  );
}
