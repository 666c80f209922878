import { IndianRupee, KeyRound, MessageCircle, Save, UserRound, X } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import type { TAdminChangePasswordRequest, TUpdateUserRequest } from '@shared/schemas/admin';
import { errorText, serverFieldErrors } from '../../api/client';
import { ADMIN_BACK_PATH, AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { ProviderSettingsTab } from '../../components/admin/ProviderSettingsTab';
import { ConnectedNumbersCard } from '../../components/admin/ConnectedNumbersCard';
import { BusinessInfoCard } from '../../components/admin/BusinessInfoCard';
import { BasicInfoFields, useBasicInfoForm } from '../../components/admin/BasicInfoFields';
import { UserPricingForm } from '../../components/admin/UserPricingForm';
import { useChangeUserPassword, useUpdateUser } from '../../hooks/useAdminUser';
import { useUserPricing } from '../../hooks/usePricing';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { FormPasswordField } from '../../components/form/fields';
import { showServerFieldErrors, useSchemaForm } from '../../components/form/useSchemaForm';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { basicInfoFormFrom, ZPasswordChangeForm } from '../../lib/adminUserForms';
import { NumberHealthCard } from '../../components/numberHealth/NumberHealthCard';

const u = messages.adminUser;
const p = messages.pricing;

const emptyPasswordChange = { newPassword: '', confirmPassword: '' };

const TABS = ['basic', 'provider', 'pricing', 'security'] as const;
type SettingsTab = (typeof TABS)[number];

function isSettingsTab(value: string | null): value is SettingsTab {
  return TABS.some((tab) => tab === value);
}

/** `?tab=whatsapp` links from before the provider set-up was brought together still open it. */
function tabFrom(value: string | null): SettingsTab {
  if (value === 'whatsapp') return 'provider';
  return isSettingsTab(value) ? value : 'basic';
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
  const { form, changed, markSaved } = useBasicInfoForm(user);
  const [error, setError] = useState('');
  const busy = update.isPending;

  const handleSave = async (changes: TUpdateUserRequest) => {
    setError('');
    if (Object.keys(changes).length === 0) return;
    try {
      const response = await update.mutateAsync(changes);
      markSaved(basicInfoFormFrom(response.user));
      toast.success(response.message || u.updated);
    } catch (caught) {
      // Spec 001 §8: the settings screen's own fallback, and the connection text when no answer came.
      const text = errorText(caught, u.updateSettingsFailed, messages.common.failedToConnect);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card>
      <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)} aria-label="Basic information">
        <CardHeader>
          <CardTitle>Basic Information</CardTitle>
          <CardDescription>The user's account details and role.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <BasicInfoFields idPrefix="settings" control={form.control} disabled={busy} />
          </div>
        </CardContent>
        <FormActions busy={busy} canSave={changed} saveLabel="Save Changes" />
      </form>
    </Card>
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
  return <UserPricingForm userId={userId} pricing={pricing.data} />;
}

function SecurityTab({ user }: { user: AdminUserView }) {
  const change = useChangeUserPassword(user.id);
  const form = useSchemaForm(ZPasswordChangeForm, emptyPasswordChange);
  const [error, setError] = useState('');
  const busy = change.isPending;

  const handleChangePassword = async (request: TAdminChangePasswordRequest) => {
    setError('');
    try {
      const response = await change.mutateAsync(request);
      form.reset(emptyPasswordChange);
      toast.success(response.message || u.passwordChanged);
    } catch (caught) {
      const text = errorText(caught, u.changePasswordFailed);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={(event) => void form.handleSubmit(handleChangePassword)(event)} aria-label="Change password">
        <CardHeader>
          <CardTitle>Change Password</CardTitle>
          <CardDescription>
            Set a new password for @{user.username}. The change is recorded in the admin audit trail.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {error ? <Alert tone="error">{error}</Alert> : null}
          <FormPasswordField
            control={form.control}
            name="newPassword"
            id="settings-new-password"
            label="New Password"
            autoComplete="new-password"
            hint="At least 6 characters."
            disabled={busy}
          />
          <FormPasswordField
            control={form.control}
            name="confirmPassword"
            id="settings-confirm-password"
            label="Confirm Password"
            autoComplete="new-password"
            disabled={busy}
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
  const tab = tabFrom(searchParams.get('tab'));

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
    <AdminUserPage title="User Settings" description="Account details, provider set-up (Cloud API and channel), pricing and password of one user.">
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
              <TabsTrigger value="provider">
                <MessageCircle aria-hidden="true" />
                Provider
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
            <TabsContent value="provider">
              {/* The whole provider set-up here, Cloud API and channel, not split with User Details. */}
              <div className="flex flex-col gap-6">
                <BusinessInfoCard key={user.id} user={user} />
                <ProviderSettingsTab userId={user.id} />
                <ConnectedNumbersCard userId={user.id} />
                <NumberHealthCard scope="admin" userId={user.id} />
              </div>
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
