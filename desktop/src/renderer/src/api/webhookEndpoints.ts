import type { TCreateWebhookEndpointRequest, TWebhookDelivery, TWebhookEndpoint, TWebhookEndpointCreated } from '@shared/schemas/webhookEndpoints';
import { apiDelete, apiGet, apiPost } from './client';

/** Signed delivery webhooks on API Management. */
export const webhookEndpointsApi = {
  list: async () => (await apiGet<{ data: TWebhookEndpoint[] }>('/api/webhook-endpoints')).data,
  create: (input: TCreateWebhookEndpointRequest) => apiPost<TWebhookEndpointCreated>('/api/webhook-endpoints', input),
  remove: (id: number) => apiDelete<unknown>(`/api/webhook-endpoints/${id}`),
  rotateSecret: (id: number) => apiPost<TWebhookEndpointCreated>(`/api/webhook-endpoints/${id}/rotate-secret`),
  test: (id: number) => apiPost<TWebhookDelivery>(`/api/webhook-endpoints/${id}/test`),
  deliveries: async (id: number) => (await apiGet<{ data: TWebhookDelivery[] }>(`/api/webhook-endpoints/${id}/deliveries`)).data,
  retry: (id: number, deliveryId: number) => apiPost<TWebhookDelivery>(`/api/webhook-endpoints/${id}/deliveries/${deliveryId}/retry`),
};

export const webhookQueryKeys = {
  endpoints: ['webhook-endpoints'] as const,
  deliveries: (id: number) => ['webhook-endpoints', id, 'deliveries'] as const,
};
