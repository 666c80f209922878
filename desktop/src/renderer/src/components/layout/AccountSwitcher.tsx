import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { TEAM_ROLE_LABELS } from '@shared/teamRoles';
import { errorText } from '../../api/errors';
import { teamApi, teamQueryKeys } from '../../api/team';
import { NativeSelect } from '../ui/native-select';

/** The header's account switcher, for a person who belongs to more than one account. */
export function AccountSwitcher() {
  const accounts = useQuery({ queryKey: teamQueryKeys.accounts, queryFn: teamApi.accounts, retry: 1 });
  const switchTo = useMutation({
    mutationFn: teamApi.switchTo,
    // Every screen's data belongs to the account: start again from the dashboard.
    onSuccess: () => window.location.assign('/user/dashboard'),
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const list = accounts.data ?? [];
  if (list.length < 2) return null;
  const current = list.find((account) => account.current);
  return (
    <div className="w-44 sm:w-56">
      <NativeSelect
        aria-label={messages.team.switcherLabel}
        data-testid="account-switcher"
        value={current?.id ?? ''}
        disabled={switchTo.isPending}
        onChange={(event) => switchTo.mutate(Number(event.target.value))}
      >
        {list.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name} ({TEAM_ROLE_LABELS[account.role]})
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
