/**
 * How provider secrets are sealed at rest (security/secretBox.ts): each under a context naming its
 * column and owner, so that a value copied into another column or another user's row does not open.
 */
import type { SecretBox } from '../security/secretBox';

export type SecretField = 'accessToken' | 'webhookVerifyToken' | 'appSecret';
export type SecretColumn = 'accessTokenEncrypted' | 'webhookVerifyTokenEncrypted' | 'appSecretEncrypted';

/** Business info's write-only secrets, by request field and column. */
export const BUSINESS_SECRET_FIELDS: readonly (readonly [SecretField, SecretColumn])[] = [
  ['accessToken', 'accessTokenEncrypted'],
  ['webhookVerifyToken', 'webhookVerifyTokenEncrypted'],
  ['appSecret', 'appSecretEncrypted'],
];

export function secretContext(column: SecretColumn | 'apiKeyEncrypted', userId: number): string {
  return `${column}:${userId}`;
}

/** A sealed value opened, or null when there is none or it no longer opens (SECRETS_KEY changed). */
export function tryOpenSecret(secretBox: SecretBox, sealed: string | null, context: string): string | null {
  if (!sealed) return null;
  try {
    return secretBox.open(sealed, context);
  } catch {
    return null;
  }
}
