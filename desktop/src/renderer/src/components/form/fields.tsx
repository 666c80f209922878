import { useId, type ChangeEvent, type ComponentProps, type ReactNode } from 'react';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { PHONE_EXAMPLE } from '@shared/constants';
import { digitsOnly } from '@shared/schemas/auth';
import { cn } from '../../lib/cn';
import { FieldShell, PasswordField, TextField } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { Textarea } from '../ui/textarea';

/** Which form and which of its text fields a field component is bound to. */
export interface BoundFieldProps<Values extends FieldValues, Output> {
  control: Control<Values, unknown, Output>;
  name: FieldPathByValue<Values, string | undefined>;
}

type TextFieldProps = ComponentProps<typeof TextField>;
type InputPropsOwnedByForm = 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'ref' | 'type';

/** What the page still decides: label, id, hint, disabled, autocomplete and the like. */
export type FieldLookProps = Omit<TextFieldProps, InputPropsOwnedByForm> & {
  /**
   * Marks the field invalid without a message under it, for forms that say what is wrong once
   * for several fields (the forgot-password step's alert).
   */
  messageElsewhere?: boolean;
};

/**
 * The input props and error text of a bound field. `keep` filters what is typed (digits only),
 * as the field shows it. For a field of one screen only; the components below use it too.
 */
export function useBoundInput<Values extends FieldValues, Output>(
  { control, name }: BoundFieldProps<Values, Output>,
  keep?: (typed: string) => string,
) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return {
    input: {
      name: field.name,
      ref: field.ref,
      value: typeof value === 'string' ? value : '',
      onBlur: field.onBlur,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => field.onChange(keep ? keep(event.target.value) : event.target.value),
    },
    error: fieldState.error?.message,
  };
}

/** The look of a field whose kind brings its own label ("Email", "Username", "Phone Number"). */
type KindFieldLookProps = Omit<FieldLookProps, 'label'> & { label?: ReactNode };

function shownError(error: string | undefined, messageElsewhere: boolean | undefined) {
  return messageElsewhere ? { invalid: Boolean(error) } : { error };
}

/** A plain text field of a schema form (names, reasons, labels). */
export function FormTextField<Values extends FieldValues, Output>({
  control,
  name,
  messageElsewhere,
  ...look
}: BoundFieldProps<Values, Output> & FieldLookProps & { type?: 'text' | 'email' | 'url' }) {
  const { input, error } = useBoundInput({ control, name });
  return <TextField {...look} {...input} {...shownError(error, messageElsewhere)} />;
}

/** An email address. */
export function FormEmailField<Values extends FieldValues, Output>(props: BoundFieldProps<Values, Output> & KindFieldLookProps) {
  return <FormTextField label="Email" autoComplete="email" {...props} type="email" />;
}

/** A username: letters, numbers and underscores, as the account schemas require. */
export function FormUsernameField<Values extends FieldValues, Output>(props: BoundFieldProps<Values, Output> & KindFieldLookProps) {
  return <FormTextField label="Username" autoComplete="username" autoCapitalize="none" spellCheck={false} {...props} />;
}

/** A password with a show/hide button; the text is never shown until the person asks. */
export function FormPasswordField<Values extends FieldValues, Output>({
  control,
  name,
  messageElsewhere,
  ...look
}: BoundFieldProps<Values, Output> & FieldLookProps) {
  const { input, error } = useBoundInput({ control, name });
  return <PasswordField {...look} {...input} {...shownError(error, messageElsewhere)} />;
}

/**
 * A WhatsApp number: country code and number without `+`. With `digitsWhileTyping` anything
 * else is dropped as it is typed; otherwise the schema drops spaces and dashes on submit.
 */
export function FormPhoneField<Values extends FieldValues, Output>({
  control,
  name,
  messageElsewhere,
  digitsWhileTyping,
  ...look
}: BoundFieldProps<Values, Output> & KindFieldLookProps & { digitsWhileTyping?: boolean }) {
  const { input, error } = useBoundInput({ control, name }, digitsWhileTyping ? digitsOnly : undefined);
  return (
    <TextField
      label="Phone Number"
      inputMode="numeric"
      autoComplete="tel"
      placeholder={PHONE_EXAMPLE}
      {...look}
      {...input}
      {...shownError(error, messageElsewhere)}
    />
  );
}

/**
 * An amount of rupees (one credit is ₹1). `paise` allows two decimals; otherwise whole rupees.
 * Indian grouping ("1,00,000") is accepted as typed; the schema reads it.
 */
export function FormAmountField<Values extends FieldValues, Output>({
  control,
  name,
  messageElsewhere,
  paise,
  className,
  ...look
}: BoundFieldProps<Values, Output> & FieldLookProps & { paise?: boolean }) {
  const { input, error } = useBoundInput({ control, name });
  return (
    <TextField
      inputMode={paise ? 'decimal' : 'numeric'}
      autoComplete="off"
      className={cn('tabular-nums', className)}
      {...look}
      {...input}
      {...shownError(error, messageElsewhere)}
    />
  );
}

/** A one-time code: digits only, no longer than the code. */
export function FormCodeField<Values extends FieldValues, Output>({
  control,
  name,
  messageElsewhere,
  length,
  ...look
}: BoundFieldProps<Values, Output> & FieldLookProps & { length: number }) {
  const { input, error } = useBoundInput({ control, name }, (typed) => digitsOnly(typed).slice(0, length));
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={length}
      {...look}
      {...input}
      {...shownError(error, messageElsewhere)}
    />
  );
}

type TextareaLookProps = Omit<ComponentProps<typeof Textarea>, InputPropsOwnedByForm | 'id'> & {
  label: ReactNode;
  hint?: ReactNode;
  id?: string;
  fieldClassName?: string;
};

/** Several lines of text (a reason, a note), with the label, message and hint of every field. */
export function FormTextareaField<Values extends FieldValues, Output>({
  control,
  name,
  label,
  hint,
  id,
  fieldClassName,
  ...look
}: BoundFieldProps<Values, Output> & TextareaLookProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const { input, error } = useBoundInput({ control, name });
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} className={fieldClassName}>
      <Textarea
        {...look}
        {...input}
        id={fieldId}
        invalid={Boolean(error)}
        aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
      />
    </FieldShell>
  );
}

/** One of a short fixed list (a state), as a native select, with the label, message and hint of every field. */
export function FormSelectField<Values extends FieldValues, Output>({
  control,
  name,
  label,
  hint,
  id,
  options,
  disabled,
}: BoundFieldProps<Values, Output> & { label: ReactNode; hint?: ReactNode; id?: string; disabled?: boolean; options: readonly { value: string; label: string }[] }) {
  const generated = useId();
  const fieldId = id ?? generated;
  const { input, error } = useBoundInput({ control, name });
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint}>
      <NativeSelect
        {...input}
        id={fieldId}
        disabled={disabled}
        invalid={Boolean(error)}
        aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FieldShell>
  );
}
