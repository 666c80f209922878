/**
 * GET /api/openapi.json: the public API as an OpenAPI 3.1 document, generated from the
 * shared zod schemas with zod 4's JSON Schema output. Components come from the schemas' `id`
 * metadata; examples from their `examples` metadata (tests check each against its schema). The
 * operations below are the contract of the public calls: every route of the public API is listed
 * (a test compares them with the routers) and nothing else.
 */
import { z } from 'zod';
import { CONVERSATIONS, INTEGRATIONS } from '@shared/constants';
import { MESSAGE_API_STATUSES, MESSAGES_PAGE_SIZE, ZMessagesPage, ZPublicMessage } from '@shared/schemas/messages';
import { ZApiError, ZApiSendBatchRequestDoc, ZApiSendBatchResponse, ZApiSendRequestDoc, ZApiSendResponse, ZReportsResponse } from '@shared/schemas/publicApi';
import { REPORT_STATUSES } from '@shared/schemas/reports';
import { SUPPRESSION_IMPORT_MAX_ROWS, SUPPRESSIONS_PAGE_SIZE, ZCreateSuppressionRequest, ZImportSuppressionsRequest, ZImportSuppressionsResult, ZSuppression, ZSuppressionsPage } from '@shared/schemas/suppressions';
import {
  ZCreateWebhookEndpointRequest,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookEndpointCreated,
  ZWebhookEndpointList,
  ZTemplateStatusChangedData,
  ZWebhookEvent,
  ZMessageReceivedData,
} from '@shared/schemas/webhookEndpoints';
import { ZConversationRead, ZConversationThread, ZConversationsPage, ZReplyMediaUploaded, ZSendReplyRequest, ZSentReply } from '@shared/schemas/conversations';
import {
  ZContact,
  ZContactAttributeDefinition,
  ZContactAttributeList,
  ZContactHistory,
  ZContactTagList,
  ZDefineAttributeRequest,
  ZSegmentCountRequest,
  ZContactBulkRequest,
  ZContactBulkResponse,
  ZContactInput,
  ZContactPatch,
  ZContactsPage,
  ZCreateSegmentRequest,
  ZSegment,
  ZSegmentCount,
  ZSegmentList,
  ZUpdateSegmentRequest,
} from '@shared/schemas/contacts';
import { CONTACTS } from '@shared/constants';
import { ZTaxDocumentsPage } from '@shared/schemas/wallet';

type Method = 'get' | 'post' | 'patch' | 'delete';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
  example?: string | number;
}

export interface OpenApiOperation {
  method: Method;
  /** OpenAPI form: `{messageId}`. */
  path: string;
  tag: 'Sending' | 'Status' | 'Webhooks' | 'Conversations' | 'Suppressions' | 'Contacts' | 'Billing' | 'Reference';
  operationId: string;
  summary: string;
  description?: string;
  parameters?: OpenApiParameter[];
  request?: z.ZodType;
  responses: Record<string, { description: string; schema?: z.ZodType }>;
  /** Reachable without a key (the document itself). */
  anonymous?: boolean;
}

const idempotencyKey: OpenApiParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: `Up to ${INTEGRATIONS.idempotencyKeyMaxLength} visible characters. The same key with the same body within ${INTEGRATIONS.idempotencyWindowHours} hours answers the first response again (charged once); with another body 422 idempotency_key_reused; while the first is still running 409 idempotency_key_in_flight.`,
  schema: { type: 'string', maxLength: INTEGRATIONS.idempotencyKeyMaxLength },
  example: 'order-4521-confirmation',
};
const phone: OpenApiParameter = { name: 'phone', in: 'path', required: true, description: "The contact's number with its country code, digits only", schema: { type: 'string', pattern: '^\\d{8,15}$' }, example: '919876543210' };
const batchIdempotencyKey: OpenApiParameter = { ...idempotencyKey, example: 'daily-orders-2026-11-24' };
const endpointId: OpenApiParameter = { name: 'id', in: 'path', required: true, description: 'The webhook endpoint id', schema: { type: 'integer', minimum: 1 }, example: 7 };
const contactPhone: OpenApiParameter = { name: 'phone', in: 'path', required: true, description: 'The number, digits with the country code', schema: { type: 'string' }, example: '919876543210' };
const segmentId: OpenApiParameter = { name: 'id', in: 'path', required: true, description: 'The segment id', schema: { type: 'integer', minimum: 1 }, example: 12 };
const errors = {
  '400': { description: 'Missing or invalid parameters', schema: ZApiError },
  '401': { description: 'Missing, wrong or revoked API key', schema: ZApiError },
  '429': { description: 'Over the rate limit (see Retry-After)', schema: ZApiError },
};

/** What the two send calls answer besides errors common to every call. */
const sendErrors = {
  ...errors,
  '402': { description: 'Insufficient balance', schema: ZApiError },
  '409': { description: 'A request with this Idempotency-Key is still running', schema: ZApiError },
  '422': { description: 'This Idempotency-Key was used with another body', schema: ZApiError },
};

export const OPENAPI_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'post',
    path: '/api/send',
    tag: 'Sending',
    operationId: 'sendMessage',
    summary: 'Send one template message',
    parameters: [idempotencyKey],
    request: ZApiSendRequestDoc,
    responses: {
      '200': { description: 'Accepted (or stored without sending: duplicate, opted out)', schema: ZApiSendResponse },
      ...sendErrors,
    },
  },
  {
    method: 'post',
    path: '/api/send/batch',
    tag: 'Sending',
    operationId: 'sendBatch',
    summary: 'Send one template to up to 10,000 numbers',
    parameters: [batchIdempotencyKey],
    request: ZApiSendBatchRequestDoc,
    responses: {
      '200': { description: 'Accepted', schema: ZApiSendBatchResponse },
      ...sendErrors,
    },
  },
  {
    method: 'get',
    path: '/api/messages/{messageId}',
    tag: 'Status',
    operationId: 'getMessage',
    summary: 'One message and its status',
    parameters: [{ name: 'messageId', in: 'path', required: true, description: 'The message_id the send answered', schema: { type: 'string', pattern: '^msg_\\d+$' }, example: 'msg_48213907' }],
    responses: { '200': { description: 'The message', schema: ZPublicMessage }, '401': errors['401'], '404': { description: 'No such message of yours', schema: ZApiError }, '429': errors['429'] },
  },
  {
    method: 'get',
    path: '/api/messages',
    tag: 'Status',
    operationId: 'listMessages',
    summary: `Your messages, newest first, ${MESSAGES_PAGE_SIZE} a page`,
    parameters: [
      { name: 'campaign_id', in: 'query', required: false, description: 'Only this campaign (the send answers campaign_id)', schema: { type: 'integer', minimum: 1 }, example: 1289 },
      { name: 'status', in: 'query', required: false, description: 'Only this status', schema: { type: 'string', enum: [...MESSAGE_API_STATUSES] }, example: 'failed' },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'A page', schema: ZMessagesPage }, ...errors },
  },
  {
    method: 'get',
    path: '/api/whatsapp/reports',
    tag: 'Status',
    operationId: 'listReports',
    summary: 'Reports as the Manage Reports screen shows them',
    parameters: [
      { name: 'page', in: 'query', required: false, description: 'Page number', schema: { type: 'integer', minimum: 1 }, example: 1 },
      { name: 'limit', in: 'query', required: false, description: 'Rows a page', schema: { type: 'integer', minimum: 1, maximum: 500 }, example: 50 },
      { name: 'status', in: 'query', required: false, description: 'Only this status', schema: { type: 'string', enum: [...REPORT_STATUSES] } },
      { name: 'recipientNumber', in: 'query', required: false, description: 'Numbers starting with these digits', schema: { type: 'string' } },
      { name: 'template', in: 'query', required: false, description: 'Template name', schema: { type: 'string' } },
      { name: 'dateFrom', in: 'query', required: false, description: 'From this day (IST), YYYY-MM-DD', schema: { type: 'string' } },
      { name: 'dateTo', in: 'query', required: false, description: 'To this day (IST), YYYY-MM-DD', schema: { type: 'string' } },
      { name: 'sentBy', in: 'query', required: false, description: 'Only campaigns this member of the account sent (their user id)', schema: { type: 'integer', minimum: 1 } },
    ],
    responses: { '200': { description: 'A page of reports', schema: ZReportsResponse }, ...errors },
  },
  {
    method: 'post',
    path: '/api/webhook-endpoints',
    tag: 'Webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint',
    description:
      'Deliveries are POSTs of an event { id, type, created_at, data } (or an array of up to 100 with batch: true), signed with Sandesh-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>, and carrying Sandesh-Event-Id. The secret is answered here only.',
    request: ZCreateWebhookEndpointRequest,
    responses: { '201': { description: 'Created; keep the secret', schema: ZWebhookEndpointCreated }, ...errors, '409': { description: 'Too many endpoints', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/webhook-endpoints',
    tag: 'Webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'Your webhook endpoints (without secrets)',
    responses: { '200': { description: 'The endpoints', schema: ZWebhookEndpointList }, '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'delete',
    path: '/api/webhook-endpoints/{id}',
    tag: 'Webhooks',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint and its deliveries',
    parameters: [endpointId],
    responses: { '204': { description: 'Deleted' }, '401': errors['401'], '404': { description: 'No such endpoint of yours', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/webhook-endpoints/{id}/rotate-secret',
    tag: 'Webhooks',
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret (answered once)',
    parameters: [endpointId],
    responses: { '200': { description: 'The new secret', schema: ZWebhookEndpointCreated }, '401': errors['401'], '404': { description: 'No such endpoint of yours', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/webhook-endpoints/{id}/test',
    tag: 'Webhooks',
    operationId: 'testWebhookEndpoint',
    summary: 'Deliver a ping event',
    parameters: [endpointId],
    responses: { '202': { description: 'Queued', schema: ZWebhookDelivery }, '401': errors['401'], '404': { description: 'No such endpoint of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/webhook-endpoints/{id}/deliveries',
    tag: 'Webhooks',
    operationId: 'listWebhookDeliveries',
    summary: 'The latest 100 deliveries: event, time, HTTP status, latency, next retry',
    parameters: [endpointId],
    responses: { '200': { description: 'Deliveries, newest first', schema: ZWebhookDeliveryList }, '401': errors['401'], '404': { description: 'No such endpoint of yours', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
    tag: 'Webhooks',
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again now (turns a disabled endpoint back on)',
    parameters: [endpointId, { name: 'deliveryId', in: 'path', required: true, description: 'The delivery id', schema: { type: 'integer', minimum: 1 }, example: 311 }],
    responses: { '202': { description: 'Queued', schema: ZWebhookDelivery }, '401': errors['401'], '404': { description: 'No such endpoint or delivery of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/conversations',
    tag: 'Conversations',
    operationId: 'listConversations',
    summary: `Contacts who wrote to your numbers, newest first, ${CONVERSATIONS.pageSize} a page`,
    parameters: [
      { name: 'number', in: 'query', required: false, description: 'Contacts whose number contains these digits', schema: { type: 'string' }, example: '98765' },
      { name: 'campaign_id', in: 'query', required: false, description: 'Only contacts who answered this campaign', schema: { type: 'integer', minimum: 1 }, example: 1289 },
      { name: 'unread', in: 'query', required: false, description: 'Only conversations with unread messages', schema: { type: 'boolean' }, example: 'true' },
      { name: 'q', in: 'query', required: false, description: 'Search by number or profile name', schema: { type: 'string' }, example: 'asha' },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'A page', schema: ZConversationsPage }, ...errors },
  },
  {
    method: 'get',
    path: '/api/conversations/{phone}/messages',
    tag: 'Conversations',
    operationId: 'listConversationMessages',
    summary: 'A conversation: both directions, every kind, with media links, newest first',
    parameters: [phone, { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } }],
    responses: { '200': { description: 'A page of the thread', schema: ZConversationThread }, '401': errors['401'], '404': { description: 'No conversation with this number', schema: ZApiError }, '429': errors['429'] },
  },
  {
    method: 'post',
    path: '/api/conversations/{phone}/messages',
    tag: 'Conversations',
    operationId: 'sendReply',
    summary: "Answer a contact with text or a file, within 24 hours of the contact's last message",
    description: 'A service message through the number the contact wrote to, priced by the `service` category. `{text}` or `{media_upload_id, caption?}` (from POST /api/conversations/media). After the window: 409 outside_service_window; send a template instead.',
    parameters: [phone],
    request: ZSendReplyRequest,
    responses: {
      '201': { description: 'Sent to the provider (or refused by it: status failed)', schema: ZSentReply },
      ...errors,
      '404': { description: 'No conversation with this number', schema: ZApiError },
      '409': { description: 'outside_service_window', schema: ZApiError },
    },
  },
  {
    method: 'post',
    path: '/api/conversations/{phone}/read',
    tag: 'Conversations',
    operationId: 'markConversationRead',
    summary: 'Mark a conversation read',
    parameters: [phone],
    responses: { '200': { description: 'The conversation', schema: ZConversationRead }, '401': errors['401'], '404': { description: 'No conversation with this number', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/conversations/media',
    tag: 'Conversations',
    operationId: 'uploadReplyMedia',
    summary: 'Upload a file to answer with (raw bytes; X-File-Type or Content-Type its type; 16 MB at most)',
    responses: { '201': { description: 'Its media_upload_id', schema: ZReplyMediaUploaded }, ...errors },
  },
  {
    method: 'get',
    path: '/api/conversations/media/{id}',
    tag: 'Conversations',
    operationId: 'getConversationMedia',
    summary: "A contact's file (the url of a message's media); only its owner may read it",
    parameters: [{ name: 'id', in: 'path', required: true, description: 'The number of the message (in_<id>)', schema: { type: 'integer', minimum: 1 }, example: 5521 }],
    responses: { '200': { description: 'The file' }, '401': errors['401'], '404': { description: 'No such file of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/suppressions',
    tag: 'Suppressions',
    operationId: 'listSuppressions',
    summary: `Numbers that get none of your messages, newest first, ${SUPPRESSIONS_PAGE_SIZE} a page`,
    description: 'Sends skip these numbers (stored as opted_out, not charged) and cost previews count them. Sources: keyword_reply, button, preference_webhook, send_error, manual, import.',
    parameters: [
      { name: 'q', in: 'query', required: false, description: 'Digits of the number, or words of the reason', schema: { type: 'string', maxLength: 100 }, example: '98765' },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'A page', schema: ZSuppressionsPage }, ...errors },
  },
  {
    method: 'post',
    path: '/api/suppressions',
    tag: 'Suppressions',
    operationId: 'createSuppression',
    summary: 'Add a number (source manual)',
    request: ZCreateSuppressionRequest,
    responses: { '201': { description: 'Added', schema: ZSuppression }, '200': { description: 'Already listed: the existing entry', schema: ZSuppression }, ...errors },
  },
  {
    method: 'post',
    path: '/api/suppressions/import',
    tag: 'Suppressions',
    operationId: 'importSuppressions',
    summary: `Add the numbers of a CSV (a phone column, an optional reason column; up to ${SUPPRESSION_IMPORT_MAX_ROWS.toLocaleString('en-IN')} rows)`,
    request: ZImportSuppressionsRequest,
    responses: { '200': { description: 'Counts of added, already listed and unreadable rows', schema: ZImportSuppressionsResult }, ...errors },
  },
  {
    method: 'get',
    path: '/api/suppressions/export',
    tag: 'Suppressions',
    operationId: 'exportSuppressions',
    summary: 'The whole list as CSV: phone, source, reason, created_at',
    responses: { '200': { description: 'text/csv' }, '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'delete',
    path: '/api/suppressions/{phone}',
    tag: 'Suppressions',
    operationId: 'deleteSuppression',
    summary: 'Remove a number: it gets your messages again',
    parameters: [{ name: 'phone', in: 'path', required: true, description: 'The number, with its country code', schema: { type: 'string' }, example: '919876543210' }],
    responses: { '204': { description: 'Removed' }, '401': errors['401'], '404': { description: 'Not on your list', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/contacts',
    tag: 'Contacts',
    operationId: 'listContacts',
    summary: `Your contacts, newest first, ${CONTACTS.pageSize} a page`,
    parameters: [
      { name: 'tag', in: 'query', required: false, description: 'Only contacts with this tag', schema: { type: 'string' }, example: 'vip' },
      { name: 'q', in: 'query', required: false, description: 'Part of a name or number', schema: { type: 'string' }, example: 'asha' },
      { name: 'segment_id', in: 'query', required: false, description: 'Only contacts this segment matches', schema: { type: 'integer', minimum: 1 }, example: 12 },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'A page', schema: ZContactsPage }, ...errors },
  },
  {
    method: 'post',
    path: '/api/contacts',
    tag: 'Contacts',
    operationId: 'createContact',
    summary: 'Add a contact',
    description: 'Attributes named for the first time are defined with the type of their value: a number, a date written YYYY-MM-DD, or text.',
    request: ZContactInput,
    responses: { '201': { description: 'Created', schema: ZContact }, ...errors, '409': { description: 'A contact with this number exists', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/contacts/bulk',
    tag: 'Contacts',
    operationId: 'bulkContacts',
    summary: `Create or update up to ${CONTACTS.bulkMax.toLocaleString('en-IN')} contacts by number`,
    description: 'Idempotent by number. Existing contacts are updated (attributes merged, tags added) unless existing is "skip". Invalid entries are answered by index; the others are written.',
    request: ZContactBulkRequest,
    responses: { '200': { description: 'What was written', schema: ZContactBulkResponse }, ...errors },
  },
  {
    method: 'get',
    path: '/api/contacts/{phone}',
    tag: 'Contacts',
    operationId: 'getContact',
    summary: 'One contact',
    parameters: [contactPhone],
    responses: { '200': { description: 'The contact', schema: ZContact }, '401': errors['401'], '404': { description: 'No such contact of yours', schema: ZApiError } },
  },
  {
    method: 'patch',
    path: '/api/contacts/{phone}',
    tag: 'Contacts',
    operationId: 'updateContact',
    summary: 'Change a contact (attributes merge, null removes one; tags replace)',
    parameters: [contactPhone],
    request: ZContactPatch,
    responses: { '200': { description: 'The contact', schema: ZContact }, ...errors, '404': { description: 'No such contact of yours', schema: ZApiError } },
  },
  {
    method: 'delete',
    path: '/api/contacts/{phone}',
    tag: 'Contacts',
    operationId: 'deleteContact',
    summary: 'Delete a contact (an opt-out stays on the suppression list)',
    parameters: [contactPhone],
    responses: { '204': { description: 'Deleted' }, '401': errors['401'], '404': { description: 'No such contact of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/segments',
    tag: 'Contacts',
    operationId: 'listSegments',
    summary: 'Your segments',
    responses: { '200': { description: 'The segments', schema: ZSegmentList }, '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'post',
    path: '/api/segments',
    tag: 'Contacts',
    operationId: 'createSegment',
    summary: 'Save a filter over your contacts',
    request: ZCreateSegmentRequest,
    responses: { '201': { description: 'Created', schema: ZSegment }, ...errors, '409': { description: 'Too many segments', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/segments/{id}',
    tag: 'Contacts',
    operationId: 'getSegment',
    summary: 'One segment',
    parameters: [segmentId],
    responses: { '200': { description: 'The segment', schema: ZSegment }, '401': errors['401'], '404': { description: 'No such segment of yours', schema: ZApiError } },
  },
  {
    method: 'patch',
    path: '/api/segments/{id}',
    tag: 'Contacts',
    operationId: 'updateSegment',
    summary: 'Rename a segment or change its filter',
    parameters: [segmentId],
    request: ZUpdateSegmentRequest,
    responses: { '200': { description: 'The segment', schema: ZSegment }, ...errors, '404': { description: 'No such segment of yours', schema: ZApiError } },
  },
  {
    method: 'delete',
    path: '/api/segments/{id}',
    tag: 'Contacts',
    operationId: 'deleteSegment',
    summary: 'Delete a segment (its contacts stay)',
    parameters: [segmentId],
    responses: { '204': { description: 'Deleted' }, '401': errors['401'], '404': { description: 'No such segment of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/segments/{id}/count',
    tag: 'Contacts',
    operationId: 'countSegment',
    summary: 'Contacts the segment matches now: count can be messaged, opted_out cannot',
    parameters: [segmentId],
    responses: { '200': { description: 'The counts', schema: ZSegmentCount }, '401': errors['401'], '404': { description: 'No such segment of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/contacts/attributes',
    tag: 'Contacts',
    operationId: 'listContactAttributes',
    summary: 'Your contact attributes, with how many contacts hold a value of each',
    responses: { '200': { description: 'The attributes', schema: ZContactAttributeList }, '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'post',
    path: '/api/contacts/attributes',
    tag: 'Contacts',
    operationId: 'defineContactAttribute',
    summary: 'Define an attribute (text, number or date) before any contact holds it',
    request: ZDefineAttributeRequest,
    responses: {
      '201': { description: 'Defined', schema: ZContactAttributeDefinition },
      ...errors,
      '409': { description: 'The name is taken, or every column of that type is', schema: ZApiError },
    },
  },
  {
    method: 'delete',
    path: '/api/contacts/attributes/{name}',
    tag: 'Contacts',
    operationId: 'deleteContactAttribute',
    summary: "Remove an attribute and every contact's value of it",
    parameters: [{ name: 'name', in: 'path', required: true, description: 'The attribute', schema: { type: 'string' }, example: 'city' }],
    responses: { '204': { description: 'Removed' }, '401': errors['401'], '404': { description: 'No such attribute', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/contacts/tags',
    tag: 'Contacts',
    operationId: 'listContactTags',
    summary: 'The tags on your contacts, with how many carry each',
    responses: { '200': { description: 'The tags', schema: ZContactTagList }, '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'get',
    path: '/api/contacts/{phone}/history',
    tag: 'Contacts',
    operationId: 'contactHistory',
    summary: "A contact's messages, newest first: campaigns sent to them, their replies and your answers",
    description: 'Message rows are kept for the retention period; the contact\'s counts keep the totals.',
    parameters: [
      { name: 'phone', in: 'path', required: true, description: 'The number, with its country code', schema: { type: 'string' }, example: '919876543210' },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'A page', schema: ZContactHistory }, ...errors, '404': { description: 'No such contact of yours', schema: ZApiError } },
  },
  {
    method: 'post',
    path: '/api/segments/count',
    tag: 'Contacts',
    operationId: 'countSegmentFilter',
    summary: 'Count a filter before saving it: count can be messaged, opted_out cannot',
    request: ZSegmentCountRequest,
    responses: { '200': { description: 'The counts', schema: ZSegmentCount }, ...errors },
  },
  {
    method: 'get',
    path: '/api/wallet/invoices',
    tag: 'Billing',
    operationId: 'listTaxInvoices',
    summary: 'Your GST tax invoices and credit notes, newest first',
    description: 'Every paid top-up has a tax invoice (CGST + SGST within the supplier state, IGST otherwise); a refund has a credit note against its invoice. Amounts are rupee strings exact to the paisa.',
    parameters: [
      { name: 'cursor', in: 'query', required: false, description: 'nextCursor of the previous page', schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, description: 'Documents per page (1-500, default 50)', schema: { type: 'integer', minimum: 1, maximum: 500 } },
    ],
    responses: { '200': { description: 'A page of documents', schema: ZTaxDocumentsPage }, '400': errors['400'], '401': errors['401'], '429': errors['429'] },
  },
  {
    method: 'get',
    path: '/api/wallet/invoices/{id}/pdf',
    tag: 'Billing',
    operationId: 'getTaxInvoicePdf',
    summary: 'A tax invoice or credit note as PDF (application/pdf)',
    parameters: [{ name: 'id', in: 'path', required: true, description: 'The document id from the list', schema: { type: 'string' }, example: '42' }],
    responses: { '200': { description: 'The PDF file' }, '401': errors['401'], '404': { description: 'No such document of yours', schema: ZApiError } },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Reference',
    operationId: 'getOpenApi',
    summary: 'This document',
    anonymous: true,
    responses: { '200': { description: 'OpenAPI 3.1' } },
  },
];

/** Schemas that are documented but never a request or response body (webhook payloads). */
export const OPENAPI_EXTRA_SCHEMAS: readonly z.ZodType[] = [ZWebhookEvent, ZTemplateStatusChangedData, ZMessageReceivedData];

/** The schema's name in components (its `id` metadata). */
function schemaId(schema: z.ZodType): string {
  const id = schema.meta()?.id;
  if (typeof id !== 'string') throw new Error('every documented schema needs an id');
  return id;
}

/** The examples a schema carries in its metadata. */
export function schemaExamples(schema: z.ZodType): unknown[] {
  const examples = schema.meta()?.examples;
  return Array.isArray(examples) ? (examples as unknown[]) : [];
}

function components(io: 'input' | 'output'): Record<string, Record<string, unknown>> {
  const converted = z.toJSONSchema(z.globalRegistry, { io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Record<string, unknown>> };
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, schema] of Object.entries(converted.schemas)) {
    const { $schema: _draft, id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${schemaId(schema)}` });

export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const inputs = components('input');
  const outputs = components('output');
  const requestIds = new Set(OPENAPI_OPERATIONS.flatMap((op) => (op.request ? [schemaId(op.request)] : [])));
  const used = new Set<string>();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPENAPI_OPERATIONS) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      if (response.schema) used.add(schemaId(response.schema));
      const examples = response.schema ? schemaExamples(response.schema) : [];
      responses[status] = response.schema
        ? { description: response.description, content: { 'application/json': { schema: ref(response.schema), ...(examples[0] !== undefined ? { example: examples[0] } : {}) } } }
        : { description: response.description };
    }
    if (op.request) used.add(schemaId(op.request));
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      tags: [op.tag],
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.parameters ? { parameters: op.parameters } : {}),
      ...(op.request
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.request), example: schemaExamples(op.request)[0] } } } }
        : {}),
      responses,
      security: op.anonymous ? [] : [{ ApiKey: [] }, { BearerKey: [] }],
    };
  }
  for (const extra of OPENAPI_EXTRA_SCHEMAS) used.add(schemaId(extra));
  // A request schema is documented as the caller writes it (before transforms), every other as answered.
  const schemas: Record<string, unknown> = {};
  const all = { ...outputs, ...Object.fromEntries(Object.entries(inputs).filter(([id]) => requestIds.has(id))) };
  for (const [id, schema] of Object.entries(all)) if (used.has(id) || JSON.stringify(all).includes(`"#/components/schemas/${id}"`)) schemas[id] = schema;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sandesh API',
      version,
      description: 'Send WhatsApp template messages, read their statuses, and receive signed delivery webhooks. Authenticate with your API key as X-API-Key or Authorization: Bearer.',
    },
    servers: [{ url: '/' }],
    tags: [{ name: 'Sending' }, { name: 'Status' }, { name: 'Webhooks' }, { name: 'Conversations' }, { name: 'Suppressions' }, { name: 'Contacts' }, { name: 'Billing' }, { name: 'Reference' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerKey: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
      },
    },
  };
}
