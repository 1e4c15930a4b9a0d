import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credential secrets are random strings of 192+ bits, so a keyed SHA-256 (HMAC) is enough to make
 * a leaked table useless, and cheap enough to run on every request (a slow password hash is not).
 */
export function digestSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function randomToken(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}
