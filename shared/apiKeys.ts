/**
 * API keys for the public send API (docs/decisions/2026-11-21-accounts-and-api-keys.md): limits and the shapes the key
 * endpoints answer. The full key exists only in the create answer; the server keeps its hash.
 */

export const API_KEYS = {
  /** Keys start with this marker so that a leaked one is easy to recognise in logs and scanners. */
  keyMarker: 'snd_',
  /** Characters of the key shown after creation (`snd_` and eight more). */
  prefixLength: 12,
  maxActivePerUser: 10,
  nameMaxLength: 100,
  /** Highest per-key limit an administrator can set, in requests per 15 minutes. */
  rateLimitMax: 1_000_000,
} as const;

/** What the full key looks like: the marker and 43 base62 characters (256 bits). */
export const API_KEY_PATTERN = /^snd_[A-Za-z0-9]{43}$/;

/** One key as its owner sees it (GET /api/keys): never the hash or the full key. */
export interface TApiKey {
  id: number;
  name: string;
  /** The first characters of the key, to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Requests per 15 minutes for this key; null means the platform's per-IP default. */
  rateLimitPer15Min: number | null;
}

/** An administrator's view (GET /api/admin/users/{id}/api-keys) also lists revoked keys. */
export interface TAdminApiKey extends TApiKey {
  revokedAt: string | null;
}

/** POST /api/keys: the only answer that carries the full key. */
export interface TCreatedApiKey {
  id: number;
  name: string;
  prefix: string;
  key: string;
  createdAt: string;
}

export interface TApiKeyListResponse {
  success: true;
  data: TApiKey[];
}

export interface TCreateApiKeyResponse {
  success: true;
  data: TCreatedApiKey;
  message: string;
}

/** One parameter the send API takes for a template (GET /api/send/template-info/{username}/{templatename}). */
export interface TTemplateParam {
  /** `var1`, `var2`, ... or `button_{index}_url`. */
  name: string;
  example: string;
  description: string;
  required: boolean;
}

export interface TTemplateInfoResponse {
  success: true;
  requirements: {
    has_header: boolean;
    header_type: string | null;
    variable_count: number;
    has_buttons: boolean;
    button_types: { type: string; text: string; index: number }[];
    optional_params: TTemplateParam[];
  };
}
