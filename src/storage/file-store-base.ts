import { randomBytes } from 'node:crypto';
import { FileUrlSigner, type SignatureVerdict } from './file-url-signer';
import { isValidStorageKey } from './storage-key';

export interface FileUrlOptions {
  /** HMAC key of the URL signatures; API and worker must share it. */
  secret: string;
  /** Lifetime of a URL when the caller names none (FILE_URL_TTL). */
  ttlMs: number;
  /** Lifetime of a cover preview's URL (PREVIEW_URL_TTL): shops pass these on in e-mails. */
  previewTtlMs: number;
}

const PREVIEW_EXPIRY_STEP_MS = 3_600_000;
const KEPT_PREVIEW_URLS = 20_000;

/** Without options (tests of one process) the URLs are valid only for the instance that made them. */
export function oneProcessUrlOptions(): FileUrlOptions {
  return { secret: randomBytes(32).toString('base64url'), ttlMs: 15 * 60_000, previewTtlMs: 30 * 86_400_000 };
}

/**
 * What every FileStore does the same way: its URLs are `PUBLIC_URL/files/<key>?expires&signature`,
 * so clients see one address whichever store holds the files (and /files checks the signature),
 * its keys are checked alike, and a stream is written through the store's own atomic write.
 */
export abstract class FileStoreBase {
  private readonly signer: FileUrlSigner;
  /** Preview URLs of this hour by key (about 250 bytes each), the oldest dropped first. */
  private readonly previewUrls = new Map<string, { expires: number; url: string }>();
  private readonly ttlMs: number;
  private readonly previewTtlMs: number;

  protected constructor(
    private readonly publicUrl: string,
    urls: FileUrlOptions,
  ) {
    this.signer = new FileUrlSigner(urls.secret);
    this.ttlMs = urls.ttlMs;
    this.previewTtlMs = urls.previewTtlMs;
  }

  url(key: string, ttlMs = this.ttlMs): string {
    return this.signedUrl(key, ttlMs).url;
  }

  /**
   * A cover preview's URL expires PREVIEW_URL_TTL from now rounded up to the next whole hour, so a
   * preview keeps one URL for an hour: browsers and mail clients cache the image instead of fetching
   * it again for every list, and the URL is signed once an hour rather than once per listed project
   * and request (docs/performance.md).
   */
  previewUrl(key: string, now = Date.now()): string {
    const expires = Math.ceil((now + this.previewTtlMs) / PREVIEW_EXPIRY_STEP_MS) * (PREVIEW_EXPIRY_STEP_MS / 1000);
    const kept = this.previewUrls.get(key);
    if (kept?.expires === expires) return kept.url;
    const url = this.fileUrl(key, expires, this.signer.signAt(key, expires));
    if (!kept && this.previewUrls.size >= KEPT_PREVIEW_URLS)
      this.previewUrls.delete(this.previewUrls.keys().next().value!);
    this.previewUrls.set(key, { expires, url });
    return url;
  }

  signedUrl(key: string, ttlMs = this.ttlMs): { url: string; expiresAt: number } {
    const { expires, signature } = this.signer.sign(key, ttlMs);
    return { url: this.fileUrl(key, expires, signature), expiresAt: expires };
  }

  /** `/files/<key>` under PUBLIC_URL, valid until `expires` (Unix seconds) with its signature. */
  private fileUrl(key: string, expires: number, signature: string): string {
    return `${this.publicUrl}/files/${key}?${new URLSearchParams({ expires: String(expires), signature })}`;
  }

  verifyUrl(key: string, expires: string | null, signature: string | null): SignatureVerdict {
    return this.signer.verify(key, expires, signature);
  }

  isValidKey(key: string): boolean {
    return isValidStorageKey(key);
  }

  /** Writes the bytes of `source` to `key` through the store's atomic streamed write. */
  putFrom(key: string, source: AsyncIterable<Buffer>): Promise<number> {
    return this.putStreamed(key, async (write) => {
      for await (const chunk of source) await write(chunk);
    });
  }

  abstract putStreamed(
    key: string,
    fill: (write: (chunk: Buffer) => Promise<void>) => Promise<unknown>,
  ): Promise<number>;
}
