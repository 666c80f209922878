import { useInfiniteQuery } from '@tanstack/react-query';
import { History, KeyRound, Pencil, Save, ShieldCheck, UserRound, Wallet, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { GST_STATES } from '@shared/gst';
import { formatIstTimeLabelled } from '@shared/istTime';
import { messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import { ZUpdateProfileRequest, type TUpdateProfileRequest } from '@shared/schemas/auth';
import type { TCreditHistoryEntry, TUser } from '@shared/types';
import { formatSignedRupees, walletEntryTitle } from '@shared/walletHistory';
import { authApi } from '../api/auth';
import { errorText, serverFieldErrors } from '../api/client';
import { CREDIT_HISTORY_PAGE_SIZE, creditKeys, creditsApi } from '../api/credits';
import { Avatar } from '../components/layout/UserCard';
import { FormEmailField, FormSelectField, FormTextareaField, FormTextField } from '../components/form/fields';
import { showServerFieldErrors, textFieldsCheckedBy, useSchemaForm } from '../components/form/useSchemaForm';
import { ChangePasswordCard } from '../components/profile/ChangePasswordCard';
import { Alert } from '../components/ui/alert';
import { Badge } from '../components/ui/badge';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { TextField } from '../components/ui/form-field';
import { Spinner } from '../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { cn } from '../lib/cn';
import { formatDay } from '../lib/dates';
import { formatPhoneForDisplay, isCreditType } from '../lib/format';
import { errorToast, successToast, TOAST_IDS } from '../lib/toasts';
import { useSessionStore } from '../stores/sessionStore';
import { ConnectWhatsAppCard } from '../components/whatsapp/ConnectWhatsAppCard';

const p = messages.profile;

const ZProfileForm = textFieldsCheckedBy(['name', 'email', 'businessName', 'gstin', 'billingAddress', 'billingState'], ZUpdateProfileRequest);

/** GST states by name, "Not provided" first. */
const STATE_OPTIONS = [
  { value: '', label: p.billingStateNone },
  ...Object.entries(GST_STATES)
    .map(([code, name]) => ({ value: code, label: name }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];

function profileForm(user: TUser): z.input<typeof ZProfileForm> {
  return {
    name: user.name,
    email: user.email,
    businessName: user.businessName ?? '',
    gstin: user.gstin ?? '',
    billingAddress: user.billingAddress ?? '',
    billingState: user.billingState ?? '',
  };
}

function PersonalInfo({ user }: { user: TUser }) {
  const setUser = useSessionStore((state) => state.setUser);
  const refreshUser = useSessionStore((state) => state.refreshUser);
  const [isEditing, setIsEditing] = useState(false);
  const form = useSchemaForm(ZProfileForm, profileForm(user));
  const [error, setError] = useState('');
  const [isSaving, setIsSaving] = useState(false);

  // Outside editing the fields show the account as it is now, refreshed or not.
  useEffect(() => {
    if (!isEditing) form.reset(profileForm(user));
  }, [isEditing, user, form]);

  const handleEdit = () => {
    form.reset(profileForm(user));
    setIsEditing(true);
  };

  const handleCancel = () => {
    form.reset(profileForm(user));
    setError('');
    setIsEditing(false);
  };

  const handleSave = async (profile: TUpdateProfileRequest) => {
    setIsSaving(true);
    setError('');
    try {
      const response = await authApi.updateProfile(profile);
      if (response.user) setUser(response.user);
      successToast(TOAST_IDS.profileSave, messages.auth.profileUpdated);
      setIsEditing(false);
      void refreshUser();
    } catch (caught) {
      const text = errorText(caught, messages.auth.profileUpdateFailed);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      errorToast(TOAST_IDS.profileSave, text);
    } finally {
      setIsSaving(false);
    }
  };

  const isAdmin = user.role === 'admin';
  const phone = formatPhoneForDisplay(user.phoneNumber);

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)}>
          <CardHeader className="flex-row items-start justify-between gap-4">
            <div>
              <CardTitle>Personal Information</CardTitle>
              <CardDescription>Your name and e-mail as they appear across the platform.</CardDescription>
            </div>
            {isEditing ? (
              <div className="flex gap-2">
                <Button variant="outline" onClick={handleCancel} disabled={isSaving}>
                  <X aria-hidden="true" />
                  Cancel
                </Button>
                <Button type="submit" disabled={isSaving}>
                  {isSaving ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
                  Save
                </Button>
              </div>
            ) : (
              <Button variant="outline" onClick={handleEdit}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {error ? <Alert tone="error">{error}</Alert> : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <FormTextField
                control={form.control}
                name="name"
                id="profile-name"
                label="Full Name"
                autoComplete="name"
                readOnly={!isEditing}
                disabled={isSaving}
              />
              <FormEmailField control={form.control} name="email" id="profile-email" readOnly={!isEditing} disabled={isSaving} />
              <FormTextField
                control={form.control}
                name="businessName"
                id="profile-business-name"
                label={p.businessNameLabel}
                autoComplete="organization"
                placeholder={isEditing ? undefined : 'Not provided'}
                readOnly={!isEditing}
                disabled={isSaving}
                hint={p.businessNameHint}
              />
              <FormTextField
                control={form.control}
                name="gstin"
                id="profile-gstin"
                label={p.gstinLabel}
                autoComplete="off"
                className="uppercase"
                maxLength={20}
                placeholder={isEditing ? '27AAPFU0939F1ZV' : 'Not provided'}
                readOnly={!isEditing}
                disabled={isSaving}
                hint={p.gstinHint}
              />
              <FormTextareaField
                control={form.control}
                name="billingAddress"
                id="profile-billing-address"
                label={p.billingAddressLabel}
                autoComplete="street-address"
                rows={2}
                maxLength={300}
                placeholder={isEditing ? '' : 'Not provided'}
                readOnly={!isEditing}
                disabled={isSaving}
                hint={p.billingAddressHint}
              />
              <FormSelectField
                control={form.control}
                name="billingState"
                id="profile-billing-state"
                label={p.billingStateLabel}
                options={STATE_OPTIONS}
                disabled={!isEditing || isSaving}
                hint={p.billingStateHint}
              />
              <TextField id="profile-username" label="Username" value={user.username} readOnly hint={p.usernameLocked} />
              <TextField
                id="profile-phone"
                label="Phone Number"
                value={phone ?? 'Not provided'}
                readOnly
                hint={p.phoneLocked}
              />
            </div>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              Member since {formatDay(user.createdAt)}
            </p>
          </CardContent>
        </form>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Account Overview</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex items-center gap-3 rounded-lg bg-emerald-50 p-4 dark:bg-emerald-500/10">
            <Wallet className="size-5 text-emerald-700 dark:text-emerald-300" aria-hidden="true" />
            <div>
              <p className="text-xs text-slate-600 dark:text-slate-300">{p.walletBalance}</p>
              <p className="text-xl font-bold tabular-nums">{formatRupees(user.creditBalance)}</p>
            </div>
          </div>
          <div className="flex items-center justify-between text-sm">
            <span className="text-slate-500 dark:text-slate-400">Account Status</span>
            <Badge variant={isAdmin ? 'info' : 'default'}>{isAdmin ? 'Admin' : 'Active'}</Badge>
          </div>
          <div className="flex items-center justify-between text-sm">
            <span className="text-slate-500 dark:text-slate-400">Role</span>
            <Badge variant="outline">
              <ShieldCheck aria-hidden="true" className="size-3" />
              {isAdmin ? 'Administrator' : 'User'}
            </Badge>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

function CreditEntry({ entry }: { entry: TCreditHistoryEntry }) {
  const credit = isCreditType(entry.type);
  const template = [entry.templateName, entry.templateCategory].filter(Boolean).join(' · ');
  return (
    <li className="flex items-start justify-between gap-4 px-6 py-3">
      <div className="min-w-0">
        <p className="font-medium text-slate-900 dark:text-white">{walletEntryTitle(entry.type)}</p>
        {entry.description ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{entry.description}</p>
        ) : null}
        {template ? <p className="text-xs text-slate-500 dark:text-slate-400">{template}</p> : null}
        <p className="text-xs text-slate-500 dark:text-slate-400">{formatIstTimeLabelled(entry.timestamp)}</p>
      </div>
      <p
        className={cn(
          'shrink-0 font-semibold tabular-nums',
          credit ? 'text-emerald-600 dark:text-emerald-400' : 'text-red-600 dark:text-red-400',
        )}
      >
        {formatSignedRupees(credit ? Math.abs(entry.amount) : -Math.abs(entry.amount))}
        <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">Balance {formatRupees(entry.balanceAfter)}</span>
      </p>
    </li>
  );
}

function CreditHistory({ enabled }: { enabled: boolean }) {
  const history = useInfiniteQuery({
    queryKey: creditKeys.historyPages(CREDIT_HISTORY_PAGE_SIZE),
    queryFn: ({ pageParam }) => creditsApi.history(pageParam, CREDIT_HISTORY_PAGE_SIZE),
    initialPageParam: 1,
    // `pagination` is read defensively: a server without paging answers one complete page.
    getNextPageParam: (lastPage) => (lastPage.pagination?.hasMore ? lastPage.pagination.page + 1 : undefined),
    enabled,
  });
  const entries = history.data?.pages.flatMap((page) => page.history ?? []) ?? [];
  const errorMessage = history.error
    ? errorText(history.error, p.creditHistoryLoadFailed, p.creditHistoryNetworkError)
    : null;

  let body: React.ReactNode;
  if (history.isPending) {
    body = <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>;
  } else if (entries.length === 0 && errorMessage) {
    body = (
      <div className="p-4">
        <Alert tone="error">{errorMessage}</Alert>
      </div>
    );
  } else if (entries.length === 0) {
    body = <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">{p.creditHistoryEmpty}</p>;
  } else {
    body = (
      <>
        <ul
          className="max-h-[28rem] divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800"
          aria-label="Credit history entries"
        >
          {entries.map((entry) => (
            <CreditEntry key={entry.id} entry={entry} />
          ))}
        </ul>
        {/* A failed "Load more" keeps the entries already shown; the button stays to retry. */}
        {errorMessage ? (
          <div className="px-4 pt-2">
            <Alert tone="error">{errorMessage}</Alert>
          </div>
        ) : null}
        {history.hasNextPage ? (
          <div className="flex justify-center px-4 pt-3">
            <Button
              variant="outline"
              size="sm"
              onClick={() => void history.fetchNextPage()}
              disabled={history.isFetchingNextPage}
            >
              {history.isFetchingNextPage ? <Spinner className="text-current" /> : null}
              {history.isFetchingNextPage ? messages.common.loading : 'Load more'}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Credit History</CardTitle>
        <CardDescription>Top-ups, adjustments and message charges on your wallet.</CardDescription>
      </CardHeader>
      <CardContent className="p-0 pb-2">{body}</CardContent>
    </Card>
  );
}

/** /user/profile, /admin/profile and /profile (spec 000 §2.7). */
export function ProfilePage() {
  const user = useSessionStore((state) => state.user);
  const [tab, setTab] = useState('personal');
  if (!user) return null;
  const isAdmin = user.role === 'admin';

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-center gap-4">
        <Avatar name={user.name} className="size-14 text-lg" />
        <div className="min-w-0">
          <h2 className="truncate text-2xl font-bold tracking-tight">{user.name}</h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            {user.email}
            <Badge variant={isAdmin ? 'info' : 'secondary'}>{isAdmin ? 'Administrator' : 'User'}</Badge>
          </p>
        </div>
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="personal">
            <UserRound aria-hidden="true" />
            Personal Info
          </TabsTrigger>
          <TabsTrigger value="credits">
            <History aria-hidden="true" />
            Credit History
          </TabsTrigger>
          <TabsTrigger value="security">
            <KeyRound aria-hidden="true" />
            Security
          </TabsTrigger>
        </TabsList>
        <TabsContent value="personal" className="flex flex-col gap-6">
          <PersonalInfo user={user} />
          {isAdmin ? null : <ConnectWhatsAppCard />}
        </TabsContent>
        <TabsContent value="credits">
          <CreditHistory enabled={tab === 'credits'} />
        </TabsContent>
        <TabsContent value="security">
          <ChangePasswordCard />
        </TabsContent>
      </Tabs>
    </div>
  );
}
