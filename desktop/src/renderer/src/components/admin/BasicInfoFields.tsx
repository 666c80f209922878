import { useMemo, useState } from 'react';
import { Controller, useFormState, type Control } from 'react-hook-form';
import type { TUpdateUserRequest } from '@shared/schemas/admin';
import { basicInfoFormFrom, basicInfoFormSchema, type BasicInfoForm } from '../../lib/adminUserForms';
import { FormPhoneField } from '../form/fields';
import { useSchemaForm } from '../form/useSchemaForm';
import type { AdminUserView } from './AdminUserPage';
import { AccountIdentityFields } from './AccountIdentityFields';
import { RoleSelect } from './RoleSelect';

/**
 * The Basic Information form of a user (User Details and the settings' Basic tab): it sends
 * only what was edited since the last save, checked by the server's schema.
 */
export function useBasicInfoForm(user: AdminUserView) {
  const [saved, setSaved] = useState<BasicInfoForm>(() => basicInfoFormFrom(user));
  const schema = useMemo(() => basicInfoFormSchema(saved), [saved]);
  const form = useSchemaForm(schema, saved);
  const { isDirty } = useFormState({ control: form.control });
  /** After a save, the answer becomes what the form compares with. */
  const markSaved = (next: BasicInfoForm) => {
    setSaved(next);
    form.reset(next);
  };
  return { form, changed: isDirty, markSaved };
}

/** Name, email, username, phone and role of a user, as both admin screens ask for them. */
export function BasicInfoFields({
  idPrefix,
  control,
  disabled,
}: {
  idPrefix: string;
  control: Control<BasicInfoForm, unknown, TUpdateUserRequest>;
  disabled: boolean;
}) {
  return (
    <>
      <AccountIdentityFields idPrefix={idPrefix} control={control} disabled={disabled} />
      <FormPhoneField
        control={control}
        name="phoneNumber"
        id={`${idPrefix}-phone`}
        inputMode="tel"
        autoComplete="off"
        placeholder={undefined}
        hint="Country code and number. Leave empty to remove."
        disabled={disabled}
      />
      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => (
          <RoleSelect id={`${idPrefix}-role`} value={field.value} error={fieldState.error?.message} disabled={disabled} onChange={field.onChange} />
        )}
      />
    </>
  );
}
