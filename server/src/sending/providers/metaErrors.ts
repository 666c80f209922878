/**
 * What we do with each error Meta answers a send with (or reports in a status webhook's
 * `errors[]`), read as Meta's error-code reference describes it. One row per code (or group of
 * codes that Meta describes alike); every row names the page it is read from. Anything not in the
 * table fails the message (and is refunded), unless Meta or the HTTP status says it is transient.
 * The reasons per row: docs/decisions/2026-12-07-meta-error-table.md; the table in prose:
 * docs/sending.md, "Meta's errors".
 */

/** Meta's error-code reference, the source of every row. */
export const META_ERROR_CODES_PAGE = 'https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes/';
/** Graph API error handling (codes 1, 2, 4, 10, 190, 200, 368 and the `is_transient` flag). */
export const GRAPH_ERROR_HANDLING_PAGE = 'https://developers.facebook.com/docs/graph-api/guides/error-handling';

/**
 * - `retry`: not accepted now, may be later: the message is queued again with backoff.
 * - `fail`: this message cannot be sent as it is: it fails and is refunded.
 * - `stop_sender`: the sender number cannot send at all (token, policy, account): the message
 *   waits, the number stops and its campaigns pause until the credentials are fixed or resumed.
 * - `template`: the template is out of use at Meta: it moves as Meta's template events move it.
 */
export type MetaErrorAction = 'retry' | 'fail' | 'stop_sender' | 'template';

/** Whose rate a retry waits for: this message, the sender-recipient pair, the number or the account. */
export type RetryScope = 'message' | 'pair' | 'number' | 'account';

export interface MetaErrorRow {
  codes: readonly number[];
  /** Meta's title for the code(s). */
  title: string;
  action: MetaErrorAction;
  /** For `retry`. */
  scope?: RetryScope;
  /** For `template`: the status the template moves to. */
  templateStatus?: 'PAUSED' | 'DISABLED';
  /** Retried only when Meta marks the error `is_transient` or answers HTTP 5xx; failed otherwise. */
  transientOnly?: boolean;
  source: string;
}

export const META_ERROR_TABLE: readonly MetaErrorRow[] = [
  // Throughput and rate limits: the message is fine, the pace was not.
  { codes: [130429], title: 'Rate limit hit', action: 'retry', scope: 'number', source: META_ERROR_CODES_PAGE },
  { codes: [131056], title: '(Business Account, Consumer Account) pair rate limit hit', action: 'retry', scope: 'pair', source: META_ERROR_CODES_PAGE },
  { codes: [131057], title: 'Account in maintenance mode', action: 'retry', scope: 'account', source: META_ERROR_CODES_PAGE },
  { codes: [131048], title: 'Spam rate limit hit', action: 'retry', scope: 'number', source: META_ERROR_CODES_PAGE },
  { codes: [80007], title: 'Rate limit issues (WhatsApp Business Account)', action: 'retry', scope: 'account', source: META_ERROR_CODES_PAGE },
  { codes: [4], title: 'API Too Many Calls', action: 'retry', scope: 'account', source: META_ERROR_CODES_PAGE },
  // Meta's own trouble: retried when Meta says it is transient (or answers 5xx), failed otherwise.
  { codes: [131000], title: 'Something went wrong', action: 'retry', scope: 'message', transientOnly: true, source: META_ERROR_CODES_PAGE },
  { codes: [131016], title: 'Service unavailable', action: 'retry', scope: 'message', transientOnly: true, source: META_ERROR_CODES_PAGE },
  { codes: [2], title: 'API Service', action: 'retry', scope: 'message', transientOnly: true, source: META_ERROR_CODES_PAGE },
  { codes: [1], title: 'API Unknown', action: 'retry', scope: 'message', transientOnly: true, source: GRAPH_ERROR_HANDLING_PAGE },
  // This message, this recipient: no later attempt changes the answer.
  { codes: [131026], title: 'Message undeliverable', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131047], title: 'Re-engagement message', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131049], title: 'Meta chose not to deliver (ecosystem engagement)', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131050], title: 'User stopped marketing messages', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131051], title: 'Unsupported message type', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131052], title: 'Media download error', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131053], title: 'Media upload error', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131008], title: 'Required parameter is missing', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131009], title: 'Parameter value is not valid', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131021], title: 'Recipient cannot be sender', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [131030], title: 'Recipient phone number not in allowed list', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132000], title: 'Template Param Count Mismatch', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132005], title: 'Template Hydrated Text Too Long', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132007], title: 'Template Format Character Policy Violated', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132012], title: 'Template Parameter Format Mismatch', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132068], title: 'Flow is blocked', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [132069], title: 'Flow is throttled', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [100], title: 'Invalid parameter', action: 'fail', source: META_ERROR_CODES_PAGE },
  { codes: [135000], title: 'Generic user error', action: 'fail', source: META_ERROR_CODES_PAGE },
  // The sender cannot send anything: stop it, keep the messages.
  { codes: [190], title: 'Access token has expired', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [0], title: 'AuthException', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [3], title: 'API Method (capability or permissions issue)', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [10], title: 'Permission Denied', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [200, 299], title: 'API Permission', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [368], title: 'Temporarily blocked for policies violations', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [130497], title: 'Business account is restricted from messaging users in this country', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [131031], title: 'Account has been locked', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [131042], title: 'Business eligibility payment issue', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [131045], title: 'Incorrect certificate', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  { codes: [133010], title: 'Phone number not registered', action: 'stop_sender', source: META_ERROR_CODES_PAGE },
  // The template is out of use at Meta: the campaigns using it follow it (templateHolds.ts).
  { codes: [132001], title: 'Template does not exist', action: 'template', templateStatus: 'DISABLED', source: META_ERROR_CODES_PAGE },
  { codes: [132015], title: 'Template is Paused', action: 'template', templateStatus: 'PAUSED', source: META_ERROR_CODES_PAGE },
  { codes: [132016], title: 'Template is Disabled', action: 'template', templateStatus: 'DISABLED', source: META_ERROR_CODES_PAGE },
];

const BY_CODE: ReadonlyMap<number, MetaErrorRow> = new Map(META_ERROR_TABLE.flatMap((row) => row.codes.map((code) => [code, row] as const)));

/** Code of a SendResult when the request never got an HTTP answer (refused, reset, timed out). */
export const NETWORK_ERROR_CODE = -1;
/** Code of a SendResult when we hold no credentials for the sender (token, channel). */
export const MISSING_CREDENTIALS_CODE = -2;

export interface MetaErrorHandling {
  action: MetaErrorAction;
  scope: RetryScope | null;
  templateStatus: 'PAUSED' | 'DISABLED' | null;
  /** The table row that decided, or null for the defaults (unknown code, network, our own codes). */
  row: MetaErrorRow | null;
}

/**
 * What to do with one error. `httpStatus` is the answer's status (absent for a webhook's error);
 * `isTransient` Meta's flag on the error object.
 */
export function metaErrorHandling(error: { code: number; httpStatus?: number | undefined; isTransient?: boolean | undefined }): MetaErrorHandling {
  const { code, httpStatus, isTransient } = error;
  if (code === NETWORK_ERROR_CODE) return { action: 'retry', scope: 'message', templateStatus: null, row: null };
  // No token or channel on our side: the sender cannot send until its credentials are set.
  if (code === MISSING_CREDENTIALS_CODE) return { action: 'stop_sender', scope: null, templateStatus: null, row: null };
  const serverSide = httpStatus !== undefined && httpStatus >= 500;
  const row = BY_CODE.get(code);
  if (!row) {
    // Unknown to the table: Meta's flag or a 5xx says to try again; anything else is this message's.
    return serverSide || isTransient === true ? { action: 'retry', scope: 'message', templateStatus: null, row: null } : { action: 'fail', scope: null, templateStatus: null, row: null };
  }
  if (row.transientOnly && !(serverSide || isTransient === true)) return { action: 'fail', scope: null, templateStatus: null, row };
  return { action: row.action, scope: row.scope ?? null, templateStatus: row.templateStatus ?? null, row };
}
