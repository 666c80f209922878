import { IndianRupee, KeyRound, MessageCircle, Save, Undo2, UserRound, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { PRICE_CATEGORIES, type PriceCategory } from '@shared/pricing';
import { ZUpdateUserRequest } from '@shared/schemas/admin';
import { ZUserPricingRequest } from '@shared/schemas/pricing';
import type { TUserPricingResponse } from '@shared/types';
import { errorText, serverFieldErrors } from '../../api/client';
import { ADMIN_BACK_PATH, AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { PriceList } from '../../components/admin/PriceList';
import { ProviderSettingsTab } from '../../components/admin/ProviderSettingsTab';
import { AccountIdentityFields } from '../../components/admin/AccountIdentityFields';
import { RoleSelect } from '../../components/admin/RoleSelect';
import { useChangeUserPassword, useUpdateUser } from '../../components/admin/useAdminUser';
import { useUpdateUserPricing, useUserPricing } from '../../components/admin/usePricing';
import { Alert } from '../../components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { PasswordField, TextField } from '../../components/ui/form-field';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import {
  basicInfoFormFrom,
  buildBasicInfoPayload,
  changedBasicFields,
  validatePasswordChange,
  type BasicInfoForm,
} from '../../lib/adminUserForms';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
import {
  buildRevertPayload,
  buildUserPricingPayload,
  PRICE_LABELS,
  priceFormFrom,
  sortPriceErrors,
  type PriceForm,
} from '../../lib/pricingForm';

const u = messages.adminUser;
const p = messages.pricing;

const TABS = ['basic', 'whatsapp', 'pricing', 'security'] as const;
type SettingsTab = (typeof TABS)[number];

function isSettingsTab(value: string | null): value is SettingsTab {
  return TABS.some((tab) => tab === value);
}

/** Form actions of every tab: Cancel leaves for the dashboard (spec 001 "User settings"). */
function FormActions({ busy, saveLabel, canSave = true }: { busy: boolean; saveLabel: string; canSave?: boolean }) {
  const navigate = useNavigate();
  return (
    <CardFooter className="justify-end">
      <Button variant="outline" onClick={() => navigate(ADMIN_BACK_PATH)} disabled={busy}>
        <X aria-hidden="true" />
        Cancel
      </Button>
      <Button type="submit" disabled={busy || !canSave}>
        {busy ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
        {saveLabel}
      </Button>
    </CardFooter>
  );
}

function BasicInfoTab({ user }: { user: AdminUserView }) {
  const update = useUpdateUser(user.id);
  const [saved, setSaved] = useState<BasicInfoForm>(() => basicInfoFormFrom(user));
  const [form, setForm] = useState<BasicInfoForm>(saved);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const busy = update.isPending;
  const changed = changedBasicFields(saved, form).length > 0;

  const handleChange = (field: keyof BasicInfoForm) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!changed) return;
    const validation = validateForm(ZUpdateUserRequest, buildBasicInfoPayload(saved, form));
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    try {
      const response = await update.mutateAsync(validation.data);
      const next = basicInfoFormFrom(response.user);
      setSaved(next);
      setForm(next);
      toast.success(response.message || u.updated);
    } catch (caught) {
      // Spec 001 §8: the settings screen's own fallback, and the connection text when no answer came.
      const text = errorText(caught, u.updateSettingsFailed, messages.common.failedToConnect);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card>
      <form noValidate onSubmit={handleSubmit} aria-label="Basic information">
        <CardHeader>
          <CardTitle>Basic Information</CardTitle>
          <CardDescription>The user's account details and role.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <AccountIdentityFields
              idPrefix="settings"
              values={form}
              errors={fieldErrors}
              disabled={busy}
              onChange={(field, value) => handleChange(field)(value)}
            />
            <TextField
              id="settings-phone"
              label="Phone Number"
              inputMode="tel"
              autoComplete="off"
              value={form.phoneNumber}
              error={fieldErrors.phoneNumber}
              hint="Country code and number. Leave empty to remove."
              disabled={busy}
              onChange={(e) => handleChange('phoneNumber')(e.target.value)}
            />
            <RoleSelect
              id="settings-role"
              value={form.role}
              error={fieldErrors.role}
              disabled={busy}
              onChange={(role) => handleChange('role')(role)}
            />
          </div>
        </CardContent>
        <FormActions busy={busy} canSave={changed} saveLabel="Save Changes" />
      </form>
    </Card>
  );
}

function PricingForm({ userId, pricing }: { userId: number; pricing: TUserPricingResponse }) {
  const update = useUpdateUserPricing(userId);
  const [customEnabled, setCustomEnabled] = useState(pricing.mode === 'custom');
  const [form, setForm] = useState<PriceForm>(() => priceFormFrom(pricing.custom));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [action, setAction] = useState<'save' | 'revert' | null>(null);
  const busy = update.isPending;
  const sorted = sortPriceErrors(fieldErrors);

  const applyResponse = (response: TUserPricingResponse) => {
    setCustomEnabled(response.mode === 'custom');
    setForm(priceFormFrom(response.custom));
    setFieldErrors({});
    setError('');
  };

  const handleChange = (category: PriceCategory) => (value: string) => {
    setForm((current) => ({ ...current, [category]: value }));
    // A price fixes its own message and the "at least one" message of the whole form.
    setFieldErrors((errors) => withoutField(withoutField(errors, `pricing.${category}`), 'pricing'));
  };

  const handleToggle = (checked: boolean) => {
    setCustomEnabled(checked);
    setFieldErrors({});
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const validation = validateForm(ZUserPricingRequest, buildUserPricingPayload(customEnabled, form));
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    setAction('save');
    try {
      const response = await update.mutateAsync(validation.data);
      applyResponse(response);
      toast.success(response.message || p.userPricingUpdated);
    } catch (caught) {
      const text = errorText(caught, p.updateFailed);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    } finally {
      setAction(null);
    }
  };

  const handleRevert = async () => {
    setAction('revert');
    try {
      const response = await update.mutateAsync(buildRevertPayload());
      applyResponse(response);
      setConfirmRevert(false);
      toast.success(p.userPricingReverted);
    } catch (caught) {
      const text = errorText(caught, p.revertFailed);
      setError(text);
      setConfirmRevert(false);
      toast.error(text);
    } finally {
      setAction(null);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <form noValidate onSubmit={handleSubmit} aria-label="User pricing">
          <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div>
              <CardTitle>Pricing</CardTitle>
              <CardDescription>Per-message prices in INR for this user, up to 4 decimal places.</CardDescription>
            </div>
            <Badge variant={pricing.mode === 'custom' ? 'info' : 'secondary'} data-testid="pricing-mode">
              {pricing.mode === 'custom' ? 'Custom pricing' : 'Default pricing'}
            </Badge>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            {error ? <Alert tone="error">{error}</Alert> : null}
            <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
              <div>
                <Label htmlFor="custom-pricing">Use custom pricing</Label>
                <p id="custom-pricing-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Off: this user pays the global default prices.
                </p>
              </div>
              <Switch
                id="custom-pricing"
                checked={customEnabled}
                disabled={busy}
                aria-describedby="custom-pricing-hint"
                onCheckedChange={handleToggle}
              />
            </div>
            {customEnabled ? (
              <div className="flex flex-col gap-3">
                {sorted.form ? <Alert tone="error">{sorted.form}</Alert> : null}
                <div className="grid gap-4 sm:grid-cols-3">
                  {PRICE_CATEGORIES.map((category) => (
                    <TextField
                      key={category}
                      id={`custom-price-${category}`}
                      label={`${PRICE_LABELS[category]} (₹)`}
                      inputMode="decimal"
                      autoComplete="off"
                      placeholder={pricing.defaults[category]}
                      value={form[category]}
                      error={sorted.fields[category]}
                      hint={`Empty: default ₹${pricing.defaults[category]}`}
                      disabled={busy}
                      onChange={(e) => handleChange(category)(e.target.value)}
                    />
                  ))}
                </div>
              </div>
            ) : sorted.form ? (
              <Alert tone="error">{sorted.form}</Alert>
            ) : null}
          </CardContent>
          <CardFooter className="flex-wrap justify-between gap-2">
            {pricing.mode === 'custom' ? (
              <Button variant="outline" onClick={() => setConfirmRevert(true)} disabled={busy}>
                <Undo2 aria-hidden="true" />
                Revert to Defaults
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" disabled={busy}>
              {action === 'save' ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
              Save Pricing
            </Button>
          </CardFooter>
        </form>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Prices in effect</CardTitle>
          <CardDescription>What this user is charged per message now.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <section aria-label="Effective prices" data-testid="effective-prices">
            <PriceList prices={pricing.effective} layout="column" />
          </section>
          <section aria-labelledby="global-defaults-heading">
            <h4 id="global-defaults-heading" className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
              Global defaults
            </h4>
            <PriceList prices={pricing.defaults} layout="column" />
          </section>
        </CardContent>
      </Card>

      <AlertDialog open={confirmRevert} onOpenChange={(open) => !busy && setConfirmRevert(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revert to Defaults</AlertDialogTitle>
            <AlertDialogDescription>
              This user's custom prices will be cleared and they will pay the global default prices. Continue?
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            {/* A plain button: the Radix Action would close the dialog before the call answers. */}
            <Button variant="destructive" onClick={() => void handleRevert()} disabled={busy}>
              {action === 'revert' ? <Spinner className="text-current" /> : null}
              Revert to Defaults
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function PricingTab({ userId }: { userId: number }) {
  const pricing = useUserPricing(userId);
  if (pricing.error) {
    return (
      <ErrorCard
        title={p.fetchUserFailed}
        detail={errorText(pricing.error, p.fetchUserFailed)}
        onRetry={() => void pricing.refetch()}
        isRetrying={pricing.isFetching}
      />
    );
  }
  if (!pricing.data) {
    return (
      <div className="flex justify-center py-12">
        <Spinner className="size-6" label={messages.common.loading} />
      </div>
    );
  }
  return <PricingForm userId={userId} pricing={pricing.data} />;
}

function SecurityTab({ user }: { user: AdminUserView }) {
  const change = useChangeUserPassword(user.id);
  const [form, setForm] = useState({ newPassword: '', confirmPassword: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const busy = change.isPending;

  const handleChange = (field: 'newPassword' | 'confirmPassword') => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors({});
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const validation = validatePasswordChange(form);
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    try {
      const response = await change.mutateAsync(validation.data);
      setForm({ newPassword: '', confirmPassword: '' });
      toast.success(response.message || u.passwordChanged);
    } catch (caught) {
      const text = errorText(caught, u.changePasswordFailed);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={handleSubmit} aria-label="Change password">
        <CardHeader>
          <CardTitle>Change Password</CardTitle>
          <CardDescription>
            Set a new password for @{user.username}. The change is recorded in the admin audit trail.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <PasswordField
            id="settings-new-password"
            label="New Password"
            autoComplete="new-password"
            value={form.newPassword}
            error={fieldErrors.newPassword}
            hint="At least 6 characters."
            disabled={busy}
            onChange={(e) => handleChange('newPassword')(e.target.value)}
          />
          <PasswordField
            id="settings-confirm-password"
            label="Confirm Password"
            autoComplete="new-password"
            value={form.confirmPassword}
            error={fieldErrors.confirmPassword}
            disabled={busy}
            onChange={(e) => handleChange('confirmPassword')(e.target.value)}
          />
        </CardContent>
        <FormActions busy={busy} saveLabel="Change Password" />
      </form>
    </Card>
  );
}

/**
 * /admin/users/:id/settings (spec 001 "User settings"): Basic Information, WhatsApp Business,
 * Pricing and Security. The tab lives in `?tab=` so that a reload or a shared link opens the
 * same one.
 */
export function AdminUserSettingsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: SettingsTab = isSettingsTab(requested) ? requested : 'basic';

  const handleTabChange = (next: string) => {
    if (!isSettingsTab(next)) return;
    setSearchParams(
      (params) => {
        const updated = new URLSearchParams(params);
        if (next === 'basic') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <AdminUserPage title="User Settings" description="Account details, provider settings, pricing and password of one user.">
      {(user) => (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <span className="font-semibold text-slate-900 dark:text-white">{user.name}</span> · @{user.username} · ID{' '}
            {user.id}
          </p>
          <Tabs value={tab} onValueChange={handleTabChange}>
            <TabsList className="h-auto flex-wrap">
              <TabsTrigger value="basic">
                <UserRound aria-hidden="true" />
                Basic Information
              </TabsTrigger>
              <TabsTrigger value="whatsapp">
                <MessageCircle aria-hidden="true" />
                WhatsApp Business
              </TabsTrigger>
              <TabsTrigger value="pricing">
                <IndianRupee aria-hidden="true" />
                Pricing
              </TabsTrigger>
              <TabsTrigger value="security">
                <KeyRound aria-hidden="true" />
                Security
              </TabsTrigger>
            </TabsList>
            <TabsContent value="basic">
              <BasicInfoTab key={user.id} user={user} />
            </TabsContent>
            <TabsContent value="whatsapp">
              <ProviderSettingsTab userId={user.id} />
            </TabsContent>
            <TabsContent value="pricing">
              <PricingTab userId={user.id} />
            </TabsContent>
            <TabsContent value="security">
              <SecurityTab user={user} />
            </TabsContent>
          </Tabs>
        </div>
      )}
    </AdminUserPage>
  );
}
