import type { TAccountSummary, TActivityEntry, TCreatedInvite, TCreateInviteRequest, TDeleteAccountRequest, TTeamInvite, TTeamMember } from '@shared/schemas/team';
import type { MemberRole } from '@shared/teamRoles';
import { apiDelete, apiGet, apiPatch, apiPost } from './client';

interface DataResponse<T> {
  success: true;
  data: T;
}
interface Done {
  success: true;
  message: string;
}

/** Members, invitations and account switching (docs/accounts.md, Teams). */
export const teamApi = {
  members: async () => (await apiGet<DataResponse<TTeamMember[]>>('/api/team/members')).data,
  invites: async () => (await apiGet<DataResponse<TTeamInvite[]>>('/api/team/invites')).data,
  activity: async () => (await apiGet<DataResponse<TActivityEntry[]>>('/api/team/activity')).data,
  invite: (input: TCreateInviteRequest) => apiPost<TCreatedInvite>('/api/team/invites', input),
  withdraw: (id: number) => apiDelete<{ success: true }>(`/api/team/invites/${id}`),
  accept: (token: string) => apiPost<Done & { account: TAccountSummary }>(`/api/team/invites/${encodeURIComponent(token)}/accept`),
  changeRole: (userId: number, role: MemberRole) => apiPatch<Done>(`/api/team/members/${userId}`, { role }),
  remove: (userId: number) => apiDelete<Done>(`/api/team/members/${userId}`),
  transfer: (userId: number) => apiPost<Done>('/api/team/transfer-ownership', { userId }),
  accounts: () => apiGet<TAccountSummary[]>('/api/accounts'),
  switchTo: (id: number) => apiPost<Done>(`/api/accounts/${id}/switch`),
  deleteAccount: (input: TDeleteAccountRequest) => apiDelete<Done>('/api/account', { data: input }),
};

export const teamQueryKeys = {
  members: ['team', 'members'] as const,
  invites: ['team', 'invites'] as const,
  activity: ['team', 'activity'] as const,
  accounts: ['accounts'] as const,
};
