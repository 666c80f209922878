import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { ZCreateInviteRequest, type TCreatedInvite, type TInviteDelivery } from '@shared/schemas/team';
import { MEMBER_ROLES, TEAM_ROLE_LABELS, type MemberRole } from '@shared/teamRoles';
import { teamApi, teamQueryKeys } from '../../api/team';
import { errorText } from '../../api/errors';
import { FormEmailField, FormPhoneField } from '../../components/form/fields';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { Button } from '../../components/ui/button';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { NativeSelect } from '../../components/ui/native-select';
import { DeleteAccountCard } from '../../components/team/DeleteAccountCard';

const t = messages.team;

/** How each invitation reached the person, as the pending list and the created notice say it. */
const DELIVERY_LABELS: Record<TInviteDelivery, string> = {
  whatsapp_sent: t.deliveryWhatsAppSent,
  whatsapp_failed: t.deliveryWhatsAppFailed,
  link_only: t.deliveryLinkOnly,
};

const CREATED_NOTICES: Record<TInviteDelivery, string> = {
  whatsapp_sent: t.inviteSentByWhatsApp,
  whatsapp_failed: t.inviteWhatsAppFailed,
  link_only: t.inviteReady,
};

/** The owner's Team screen: members and their roles, invitations, removal and transfer. */
export function TeamPage() {
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: teamQueryKeys.members, queryFn: teamApi.members });
  const invites = useQuery({ queryKey: teamQueryKeys.invites, queryFn: teamApi.invites });
  const [created, setCreated] = useState<TCreatedInvite | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['team'] });
    void queryClient.invalidateQueries({ queryKey: teamQueryKeys.accounts });
  };
  const failed = (error: unknown) => toast.error(errorText(error, messages.common.unknownError));

  const form = useSchemaForm(ZCreateInviteRequest, { email: '', phone: '', role: 'analyst' });
  const invite = useMutation({
    mutationFn: teamApi.invite,
    onSuccess: (answer) => {
      setCreated(answer);
      form.reset({ email: '', phone: '', role: 'analyst' });
      if (answer.delivery === 'whatsapp_failed') toast.warning(CREATED_NOTICES[answer.delivery]);
      else toast.success(CREATED_NOTICES[answer.delivery]);
      refresh();
    },
    onError: failed,
  });
  const act = useMutation({
    mutationFn: async (action: () => Promise<{ message?: string }>) => action(),
    onSuccess: (answer) => {
      if (answer.message) toast.success(answer.message);
      refresh();
    },
    onError: failed,
  });

  const handleCopy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.link);
    toast.success(t.linkCopied);
  };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{t.title}</h1>

      <Card>
        <CardHeader>
          <CardTitle>{t.inviteTitle}</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4 md:grid-cols-4 md:items-end" onSubmit={form.handleSubmit((values) => invite.mutate(values))} noValidate>
            <FormEmailField control={form.control} name="email" id="invite-email" label={t.emailLabel} />
            <FormPhoneField control={form.control} name="phone" id="invite-phone" label={t.phoneLabel} />
            <div className="space-y-1.5">
              <label htmlFor="invite-role" className="text-sm font-medium text-slate-700 dark:text-slate-200">
                {t.roleLabel}
              </label>
              <Controller
                control={form.control}
                name="role"
                render={({ field }) => (
                  <NativeSelect id="invite-role" {...field}>
                    {MEMBER_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {TEAM_ROLE_LABELS[role]}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              />
            </div>
            <Button type="submit" disabled={invite.isPending}>
              {t.inviteButton}
            </Button>
          </form>
          {created ? (
            <div className="mt-4 flex flex-wrap items-center gap-2 rounded-lg bg-emerald-50 p-3 text-sm dark:bg-emerald-950">
              <p data-testid="invite-delivery" className="w-full text-slate-700 dark:text-slate-200">
                {CREATED_NOTICES[created.delivery]}
              </p>
              <code data-testid="invite-link" className="break-all text-slate-800 dark:text-slate-100">
                {created.link}
              </code>
              <Button type="button" variant="outline" size="sm" onClick={() => void handleCopy()}>
                {t.copyLink}
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t.membersTitle}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {(members.data ?? []).map((member) => (
              <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium text-slate-900 dark:text-slate-100">{member.name}</p>
                  <p className="text-sm text-slate-500 dark:text-slate-400">{member.email}</p>
                </div>
                {member.role === 'owner' ? (
                  <span className="text-sm font-medium text-slate-700 dark:text-slate-200">{TEAM_ROLE_LABELS.owner}</span>
                ) : (
                  <div className="flex flex-wrap items-center gap-2">
                    <NativeSelect
                      aria-label={`${t.roleLabel}: ${member.name}`}
                      value={member.role}
                      onChange={(event) => act.mutate(() => teamApi.changeRole(member.userId, event.target.value as MemberRole))}
                    >
                      {MEMBER_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {TEAM_ROLE_LABELS[role]}
                        </option>
                      ))}
                    </NativeSelect>
                    <Button type="button" variant="outline" size="sm" onClick={() => act.mutate(() => teamApi.transfer(member.userId))}>
                      {t.transferButton}
                    </Button>
                    <Button type="button" variant="destructive" size="sm" onClick={() => act.mutate(() => teamApi.remove(member.userId))}>
                      {t.removeButton}
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t.pendingTitle}</CardTitle>
        </CardHeader>
        <CardContent>
          {(invites.data ?? []).length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">{t.noPending}</p> : null}
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {(invites.data ?? []).map((pending) => (
              <li key={pending.id} className="flex items-center justify-between gap-3 py-3 text-sm">
                <span className="flex flex-wrap items-center gap-2 text-slate-800 dark:text-slate-100">
                  {pending.email ?? pending.phone} · {TEAM_ROLE_LABELS[pending.role]}
                  <Badge variant={pending.delivery === 'whatsapp_failed' ? 'warning' : 'secondary'}>
                    {DELIVERY_LABELS[pending.delivery]}
                  </Badge>
                </span>
                <Button type="button" variant="ghost" size="sm" onClick={() => act.mutate(async () => ({ ...(await teamApi.withdraw(pending.id)), message: t.inviteWithdrawn }))}>
                  {t.withdrawButton}
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <DeleteAccountCard />
    </div>
  );
}
