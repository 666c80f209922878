import { Building2, IndianRupee, Save, Settings2, UserRound, X } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import type { TUpdateUserRequest } from '@shared/schemas/admin';
import { errorText, serverFieldErrors } from '../../api/client';
import { BasicInfoFields, useBasicInfoForm } from '../../components/admin/BasicInfoFields';
import { ADMIN_BACK_PATH, AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { HeldRefundsCard } from '../../components/admin/HeldRefundsCard';
import { useAdminUserDetails, useUpdateUser } from '../../hooks/useAdminUser';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { showServerFieldErrors } from '../../components/form/useSchemaForm';
import { Spinner } from '../../components/ui/spinner';
import { basicInfoFormFrom } from '../../lib/adminUserForms';
import { formatDay } from '../../lib/dates';

const u = messages.adminUser;

/**
 * The basic fields only. The balance is shown, never edited here: every change goes through
 * Adjust Credits on the Wallet page with a reason, and provider set-up lives on the
 * Provider tab of User Settings.
 */
function UserDetailsForm({ user }: { user: AdminUserView }) {
  const navigate = useNavigate();
  const details = useAdminUserDetails(user.id);
  const updateUser = useUpdateUser(user.id);
  const { form, changed, markSaved } = useBasicInfoForm(user);
  const [error, setError] = useState('');
  const busy = updateUser.isPending;
  const current = details.data ?? user;

  const handleSave = async (changes: TUpdateUserRequest) => {
    setError('');
    if (Object.keys(changes).length === 0) return;
    try {
      const response = await updateUser.mutateAsync(changes);
      markSaved(basicInfoFormFrom(response.user));
      toast.success(response.message || u.updated);
    } catch (caught) {
      const text = errorText(caught, u.updateDetailsFailed, messages.common.failedToConnect);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)} aria-label="User details">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <UserRound className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                Basic Information
              </CardTitle>
              <CardDescription>
                User ID {user.id} · joined {formatDay(user.createdAt)}
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              {error ? <Alert tone="error">{error}</Alert> : null}
              <div className="grid gap-4 sm:grid-cols-2">
                <BasicInfoFields idPrefix="details" control={form.control} disabled={busy} />
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
            </CardContent>
          </form>
        </Card>

        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <IndianRupee className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                Credit Balance
              </CardTitle>
              <CardDescription>{messages.adminWallet.balanceOnWallet}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <p className="text-2xl font-bold tabular-nums" data-testid="details-credit-balance">
                {formatRupees(current.creditBalance)}
              </p>
              <Button asChild variant="outline" className="self-start">
                <Link to={`/admin/users/${user.id}/wallet`}>
                  <IndianRupee aria-hidden="true" />
                  Adjust Credits
                </Link>
              </Button>
            </CardContent>
          </Card>
          <Card>
            <CardHeader className="gap-3">
              <CardTitle className="flex items-center gap-2">
                <Building2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                Provider
              </CardTitle>
              <CardDescription>{messages.admin.providerMoved}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <div>{current.businessInfo ? <Badge>{messages.admin.configured}</Badge> : <Badge variant="warning">{messages.admin.notConfigured}</Badge>}</div>
              <Button asChild variant="outline" className="self-start">
                <Link to={`/admin/users/${user.id}/settings?tab=provider`}>
                  <Settings2 aria-hidden="true" />
                  Provider Settings
                </Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
      <HeldRefundsCard user={user} onReleased={() => void details.refetch()} />
    </>
  );
}

/** /admin/users/:id/details (spec 001 "User details"): basic info, the balance and the provider state. */
export function AdminUserDetailsPage() {
  return (
    <AdminUserPage title="User Details" description="Account details of one user, their balance and provider state.">
      {(user) => <UserDetailsForm key={user.id} user={user} />}
    </AdminUserPage>
  );
}
