import type { Control, FieldPathByValue, FieldValues } from 'react-hook-form';
import { FormEmailField, FormTextField, FormUsernameField } from '../form/fields';

interface AccountIdentityValues extends FieldValues {
  name: string;
  email: string;
  username: string;
}

interface AccountIdentityFieldsProps<Values extends AccountIdentityValues, Output> {
  /** Keeps ids unique when both forms are on one page. */
  idPrefix: string;
  control: Control<Values, unknown, Output>;
  disabled: boolean;
}

/** A field of every form holding an account's name, email and username. */
function identityField<Values extends AccountIdentityValues>(field: keyof AccountIdentityValues) {
  // TypeScript cannot resolve a path type over a generic form; the constraint above guarantees it.
  return field as FieldPathByValue<Values, string | undefined>;
}

/** Full Name, Email and Username as the admin forms (Add User, user settings) ask for them. */
export function AccountIdentityFields<Values extends AccountIdentityValues, Output>({
  idPrefix,
  control,
  disabled,
}: AccountIdentityFieldsProps<Values, Output>) {
  return (
    <>
      <FormTextField
        control={control}
        name={identityField<Values>('name')}
        id={`${idPrefix}-name`}
        label="Full Name"
        autoComplete="off"
        disabled={disabled}
      />
      <FormEmailField control={control} name={identityField<Values>('email')} id={`${idPrefix}-email`} autoComplete="off" disabled={disabled} />
      <FormUsernameField
        control={control}
        name={identityField<Values>('username')}
        id={`${idPrefix}-username`}
        autoComplete="off"
        disabled={disabled}
      />
    </>
  );
}
