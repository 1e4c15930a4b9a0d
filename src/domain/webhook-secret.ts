/**
 * Standard Webhooks secrets, as printers and we exchange them: `whsec_` followed by the base64 of
 * the HMAC key (at least 16 bytes). The prefix is optional on input.
 */
const SECRET = /^(?:whsec_)?([A-Za-z0-9+/]+={0,2})$/;
const MIN_KEY_BYTES = 16;

/** Why a secret is unusable, or null when it is a valid `whsec_<base64>` secret (16+ bytes). */
export function webhookSecretProblem(secret: string): string | null {
  const match = SECRET.exec(secret);
  if (!match || match[1].length % 4 !== 0)
    return 'must be whsec_ followed by base64 (e.g. whsec_ + 32 random bytes in base64)';
  if (decodedLength(match[1]) < MIN_KEY_BYTES) return `must encode at least ${MIN_KEY_BYTES} bytes`;
  return null;
}

/** The base64 key of a secret that `webhookSecretProblem` accepts. */
export function webhookSecretKey(secret: string): string {
  const match = SECRET.exec(secret);
  if (!match) throw new Error('not a webhook secret');
  return match[1];
}

/** Bytes of a well-formed base64 string: 3 per 4 characters, less its padding. */
function decodedLength(base64: string): number {
  return (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}
