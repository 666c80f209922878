import { Building2, Save, UserRound, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { errorText, serverFieldErrors } from '../../api/client';
import { AccountIdentityFields } from '../../components/admin/AccountIdentityFields';
import { ADMIN_BACK_PATH, AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { HeldRefundsCard } from '../../components/admin/HeldRefundsCard';
import { RoleSelect } from '../../components/admin/RoleSelect';
import { useAdminUserDetails, useUpdateUser } from '../../hooks/useAdminUser';
import { useSaveBusinessInfo } from '../../hooks/useProviders';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form-field';
import { FieldError, Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { formatDay } from '../../lib/dates';
import { withoutField, type FieldErrors } from '../../lib/forms';
import {
  businessInfoFormFrom,
  isBusinessInfoChanged,
  isUserDetailsChanged,
  userDetailsFormFrom,
  validateDetailsSave,
  type BusinessInfoForm,
  type UserDetailsForm,
} from '../../lib/userDetailsForm';

const p = messages.providers;
const u = messages.adminUser;

type SecretField = 'accessToken' | 'webhookVerifyToken' | 'appSecret';

/** A write-only secret: a badge says whether one is stored; typing replaces it, empty keeps it. */
function SecretField({
  id,
  label,
  isSet,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  isSet: boolean;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Badge variant={isSet ? 'default' : 'secondary'} data-testid={`${id}-status`}>
          {isSet ? p.secretSet : p.secretNotSet}
        </Badge>
      </div>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        placeholder={isSet ? '••••••••••••' : ''}
        value={value}
        invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <FieldError id={`${id}-error`} message={error} />
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {p.secretKeepHint}
        </p>
      )}
    </div>
  );
}

function UserDetailsForms({ user }: { user: AdminUserView }) {
  const navigate = useNavigate();
  const details = useAdminUserDetails(user.id);
  const updateUser = useUpdateUser(user.id);
  const saveBusiness = useSaveBusinessInfo(user.id);
  const [savedUser, setSavedUser] = useState<UserDetailsForm>(() => userDetailsFormFrom(user));
  const [savedBusiness, setSavedBusiness] = useState<BusinessInfoForm>(() => businessInfoFormFrom(user.businessInfo));
  const [userForm, setUserForm] = useState<UserDetailsForm>(savedUser);
  const [businessForm, setBusinessForm] = useState<BusinessInfoForm>(savedBusiness);
  const [secretsSet, setSecretsSet] = useState(() => secretFlags(user));
  const [userErrors, setUserErrors] = useState<FieldErrors>({});
  const [businessErrors, setBusinessErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const changed = isUserDetailsChanged(savedUser, userForm) || isBusinessInfoChanged(savedBusiness, businessForm);

  const handleUserChange = (field: keyof UserDetailsForm, value: string) => {
    setUserForm((current) => ({ ...current, [field]: value }));
    setUserErrors((errors) => withoutField(errors, field));
  };

  const handleBusinessChange = <K extends keyof BusinessInfoForm>(field: K, value: BusinessInfoForm[K]) => {
    setBusinessForm((current) => ({ ...current, [field]: value }));
    setBusinessErrors((errors) => withoutField(errors, field));
  };

  /** Spec 001: after a successful save the data is reloaded, and the forms start from it. */
  const reload = async () => {
    const fresh = (await details.refetch()).data;
    if (!fresh) return;
    const nextUser = userDetailsFormFrom(fresh);
    const nextBusiness = businessInfoFormFrom(fresh.businessInfo);
    setSavedUser(nextUser);
    setUserForm(nextUser);
    setSavedBusiness(nextBusiness);
    setBusinessForm(nextBusiness);
    setSecretsSet(secretFlags(fresh));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const checked = validateDetailsSave({ user: savedUser, business: savedBusiness }, { user: userForm, business: businessForm });
    if (!checked.ok) {
      setUserErrors(checked.userErrors);
      setBusinessErrors(checked.businessErrors);
      return;
    }
    const fail = (caught: unknown, fallback: string, setFieldErrors: (errors: FieldErrors) => void) => {
      const text = errorText(caught, fallback, messages.common.failedToConnect);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    };
    setBusy(true);
    try {
      // Basic info first, then business info; a failure stops the save there (spec 001 §4).
      if (checked.user) {
        try {
          await updateUser.mutateAsync(checked.user);
        } catch (caught) {
          fail(caught, u.updateBasicFailed, setUserErrors);
          return;
        }
        // Saved: a retry after a business failure must not send the basic fields again.
        setSavedUser(userForm);
      }
      if (checked.business) {
        try {
          await saveBusiness.mutateAsync(checked.business);
        } catch (caught) {
          fail(caught, p.updateBusinessFailed, setBusinessErrors);
          return;
        }
      }
      toast.success(p.detailsSaved);
      try {
        await reload();
      } catch (caught) {
        fail(caught, u.updateDetailsFailed, setUserErrors);
      }
    } finally {
      setBusy(false);
    }
  };

  /**
   * Released refunds move the balance: the field follows unless the admin is typing a new balance
   * there, which then stays theirs to save or cancel.
   */
  const handleRefundsReleased = (creditBalance: number) => {
    const balance = String(creditBalance);
    if (userForm.creditBalance === savedUser.creditBalance) setUserForm((current) => ({ ...current, creditBalance: balance }));
    setSavedUser((saved) => ({ ...saved, creditBalance: balance }));
  };

  const secretLabels: Record<SecretField, string> = {
    accessToken: 'Access Token',
    webhookVerifyToken: 'Webhook Verify Token',
    appSecret: 'App Secret',
  };

  return (
    <>
      <form noValidate onSubmit={handleSubmit} aria-label="User details" className="flex flex-col gap-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <UserRound className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                Basic Information
              </CardTitle>
              <CardDescription>
                User ID {user.id} · joined {formatDay(user.createdAt)}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <AccountIdentityFields
                idPrefix="details"
                values={userForm}
                errors={userErrors}
                disabled={busy}
                onChange={(field, value) => handleUserChange(field, value)}
              />
              <TextField
                id="details-phone"
                label="Phone Number"
                inputMode="tel"
                autoComplete="off"
                value={userForm.phoneNumber}
                error={userErrors.phoneNumber}
                hint="Country code and number. Leave empty to remove."
                disabled={busy}
                onChange={(e) => handleUserChange('phoneNumber', e.target.value)}
              />
              <RoleSelect id="details-role" value={userForm.role} error={userErrors.role} disabled={busy} onChange={(role) => handleUserChange('role', role)} />
              <TextField
                id="details-credit-balance"
                label="Credit Balance (₹)"
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                autoComplete="off"
                value={userForm.creditBalance}
                error={userErrors.creditBalance}
                hint="A change is recorded in the user's credit history."
                disabled={busy}
                onChange={(e) => handleUserChange('creditBalance', e.target.value)}
              />
            </CardContent>
          </Card>

          <Card>
            <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div>
                <CardTitle className="flex items-center gap-2">
                  <Building2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                  Business Information
                </CardTitle>
                <CardDescription>WhatsApp Business account with Meta. Secrets are write-only.</CardDescription>
              </div>
              {user.businessInfo ? <Badge>{messages.admin.configured}</Badge> : <Badge variant="warning">{messages.admin.notConfigured}</Badge>}
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <TextField
                id="business-name"
                label="Business Name"
                autoComplete="off"
                value={businessForm.businessName}
                error={businessErrors.businessName}
                disabled={busy}
                onChange={(e) => handleBusinessChange('businessName', e.target.value)}
              />
              <TextField
                id="business-whatsapp-number"
                label="WhatsApp Number"
                inputMode="tel"
                autoComplete="off"
                placeholder="+91 98765 43210"
                value={businessForm.whatsappNumber}
                error={businessErrors.whatsappNumber}
                disabled={busy}
                onChange={(e) => handleBusinessChange('whatsappNumber', e.target.value)}
              />
              <TextField
                id="business-number-id"
                label="Phone Number ID"
                autoComplete="off"
                spellCheck={false}
                value={businessForm.whatsappNumberId}
                error={businessErrors.whatsappNumberId}
                hint="From the WhatsApp Manager (Cloud API)."
                disabled={busy}
                onChange={(e) => handleBusinessChange('whatsappNumberId', e.target.value)}
              />
              <TextField
                id="business-waba-id"
                label="WhatsApp Business Account ID"
                autoComplete="off"
                spellCheck={false}
                value={businessForm.wabaId}
                error={businessErrors.wabaId}
                disabled={busy}
                onChange={(e) => handleBusinessChange('wabaId', e.target.value)}
              />
              <TextField
                id="business-webhook-url"
                label="Webhook URL"
                type="url"
                autoComplete="off"
                placeholder="https://"
                fieldClassName="sm:col-span-2"
                value={businessForm.webhookUrl}
                error={businessErrors.webhookUrl}
                disabled={busy}
                onChange={(e) => handleBusinessChange('webhookUrl', e.target.value)}
              />
              {(Object.keys(secretLabels) as SecretField[]).map((field) => (
                <SecretField
                  key={field}
                  id={`business-${field}`}
                  label={secretLabels[field]}
                  isSet={secretsSet[field]}
                  value={businessForm[field]}
                  error={businessErrors[field]}
                  disabled={busy}
                  onChange={(value) => handleBusinessChange(field, value)}
                />
              ))}
              <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4 sm:col-span-2 dark:border-slate-800">
                <div>
                  <Label htmlFor="business-active">Active</Label>
                  <p id="business-active-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                    Off: this business's numbers stop sending.
                  </p>
                </div>
                <Switch
                  id="business-active"
                  checked={businessForm.isActive}
                  disabled={busy}
                  aria-describedby="business-active-hint"
                  onCheckedChange={(checked) => handleBusinessChange('isActive', checked)}
                />
              </div>
            </CardContent>
          </Card>
        </div>
        <div className="flex items-center justify-end gap-2">
          <Button variant="outline" onClick={() => navigate(ADMIN_BACK_PATH)} disabled={busy}>
            <X aria-hidden="true" />
            Cancel
          </Button>
          <Button type="submit" disabled={busy || !changed}>
            {busy ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
            Save Changes
          </Button>
        </div>
      </form>
      <HeldRefundsCard user={user} onReleased={handleRefundsReleased} />
    </>
  );
}

function secretFlags(user: AdminUserView): Record<SecretField, boolean> {
  return {
    accessToken: user.businessInfo?.accessTokenSet ?? false,
    webhookVerifyToken: user.businessInfo?.webhookVerifyTokenSet ?? false,
    appSecret: user.businessInfo?.appSecretSet ?? false,
  };
}

/** /admin/users/:id/details (spec 001 "User details"): basic info left, business info right. */
export function AdminUserDetailsPage() {
  return (
    <AdminUserPage title="User Details" description="Account and WhatsApp Business details of one user.">
      {(user) => <UserDetailsForms key={user.id} user={user} />}
    </AdminUserPage>
  );
}
