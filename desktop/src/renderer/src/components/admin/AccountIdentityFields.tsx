import type { FieldErrors } from '../../lib/forms';
import { TextField } from '../ui/form-field';

type IdentityField = 'name' | 'email' | 'username';

interface AccountIdentityFieldsProps {
  /** Keeps ids unique when both forms are on one page. */
  idPrefix: string;
  values: Record<IdentityField, string>;
  errors: FieldErrors;
  disabled: boolean;
  onChange(field: IdentityField, value: string): void;
}

/** Full Name, Email and Username as the admin forms (Add User, user settings) ask for them. */
export function AccountIdentityFields({ idPrefix, values, errors, disabled, onChange }: AccountIdentityFieldsProps) {
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Full Name"
        autoComplete="off"
        value={values.name}
        error={errors.name}
        disabled={disabled}
        onChange={(e) => onChange('name', e.target.value)}
      />
      <TextField
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        autoComplete="off"
        value={values.email}
        error={errors.email}
        disabled={disabled}
        onChange={(e) => onChange('email', e.target.value)}
      />
      <TextField
        id={`${idPrefix}-username`}
        label="Username"
        autoComplete="off"
        value={values.username}
        error={errors.username}
        disabled={disabled}
        onChange={(e) => onChange('username', e.target.value)}
      />
    </>
  );
}
