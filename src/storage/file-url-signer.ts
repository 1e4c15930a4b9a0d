import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureVerdict = 'valid' | 'unsigned' | 'expired' | 'invalid';

export interface SignedUrlParts {
  /** Unix seconds after which the URL is refused. */
  expires: number;
  signature: string;
}

/**
 * Signs and checks `/files/<key>` URLs: an HMAC-SHA256 over the key and its expiry (Unix seconds),
 * base64url. Whoever holds a URL may read that one file until it expires; changing the key or the
 * expiry breaks the signature. The key is compared in constant time.
 */
export class FileUrlSigner {
  constructor(private readonly secret: string) {}

  sign(key: string, ttlMs: number, now = Date.now()): SignedUrlParts {
    const expires = Math.ceil((now + ttlMs) / 1000);
    return { expires, signature: this.mac(key, expires) };
  }

  /** The signature of `key` valid until `expires` (Unix seconds). */
  signAt(key: string, expires: number): string {
    return this.mac(key, expires);
  }

  verify(
    key: string,
    expires: string | null | undefined,
    signature: string | null | undefined,
    now = Date.now(),
  ): SignatureVerdict {
    if (!expires && !signature) return 'unsigned';
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.mac(key, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 <= now ? 'expired' : 'valid';
  }

  private mac(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }
}

/** FILE_URL_SECRET when set, else a key derived from the credential pepper (so API and worker agree). */
export function fileUrlSecret(configured: string | undefined, pepper: string): string {
  return configured ?? createHmac('sha256', pepper).update('photobook /files URL signing').digest('base64url');
}
