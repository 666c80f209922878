import type { TConnectSetup, TResumeConnectionRequest, TStartConnectionRequest, TWhatsappConnection } from '@shared/schemas/whatsappConnections';
import { apiDelete, apiGet, apiPost } from './client';

interface ConnectionAnswer {
  success: true;
  message: string;
  connection: TWhatsappConnection;
}

/** Connect WhatsApp yourself (Embedded Signup): the setup, the owner's connections, and the admin's view. */
export const whatsappConnectionsApi = {
  setup: () => apiGet<{ success: true; setup: TConnectSetup }>('/api/whatsapp/connect-setup'),
  list: () => apiGet<{ success: true; connections: TWhatsappConnection[] }>('/api/whatsapp/connections'),
  start: (input: TStartConnectionRequest) => apiPost<ConnectionAnswer>('/api/whatsapp/connections', input),
  resume: (id: number, input: TResumeConnectionRequest) => apiPost<ConnectionAnswer>(`/api/whatsapp/connections/${id}/resume`, input),
  remove: (id: number) => apiDelete<{ success: true; message: string }>(`/api/whatsapp/connections/${id}`),
  adminList: (userId: number) => apiGet<{ success: true; connections: TWhatsappConnection[] }>(`/api/admin/users/${userId}/whatsapp-connections`),
  adminDisconnect: (userId: number, id: number) => apiPost<{ success: true; message: string }>(`/api/admin/users/${userId}/whatsapp-connections/${id}/disconnect`),
};

export const whatsappConnectionKeys = {
  setup: () => ['whatsapp', 'connect-setup'] as const,
  list: () => ['whatsapp', 'connections'] as const,
  admin: (userId: number) => ['admin', 'users', userId, 'whatsapp-connections'] as const,
};
