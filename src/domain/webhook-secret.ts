import { randomBytes } from 'node:crypto';

/**
 * Standard Webhooks secrets as printers and we exchange them: `whsec_` and the base64 of a key of
 * at least 16 bytes. Checked when the configuration is read, so a bad secret stops the start
 * rather than the first webhook.
 */

const SECRET = /^(?:whsec_)?([A-Za-z0-9+/]+={0,2})$/;
const MIN_KEY_BYTES = 16;

/** Why a secret is unusable, or null when it is a valid `whsec_<base64>` secret (16+ bytes). */
export function webhookSecretProblem(secret: string): string | null {
  const match = SECRET.exec(secret);
  if (!match || match[1].length % 4 !== 0) return 'must be whsec_ followed by base64 (e.g. whsec_ + 32 random bytes in base64)';
  if (Buffer.from(match[1], 'base64').length < MIN_KEY_BYTES) return `must encode at least ${MIN_KEY_BYTES} bytes`;
  return null;
}

/** A new secret: `whsec_` + 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
