import { copyFile, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileUrlSigner, type SignatureVerdict } from './file-url-signer';
import { replaceFileAtomically, writeFileAtomically } from './write-file-atomically';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export interface FileUrlOptions {
  /** HMAC key of the URL signatures; API and worker must share it. */
  secret: string;
  /** Lifetime of a URL when the caller names none (FILE_URL_TTL). */
  ttlMs: number;
  /** Lifetime of a cover preview's URL (PREVIEW_URL_TTL): shops pass these on in e-mails. */
  previewTtlMs: number;
}

/**
 * Files (photo originals, thumbnails, previews, print files) under DATA_DIR/files, addressed by
 * keys like `<client>/<env>/projects/<storage key>/preview.jpg`. Writes are atomic (temp file + rename), so
 * a retried activity never leaves half a file behind. URLs are `PUBLIC_URL/files/<key>?expires=…&signature=…`:
 * signed and expiring, so knowing a key is not enough to read a file.
 */
export class FileStore {
  private readonly signer: FileUrlSigner;
  private readonly ttlMs: number;
  private readonly previewTtlMs: number;

  constructor(
    readonly root: string,
    private readonly publicUrl: string,
    // Without options (tests of one process) the URLs are valid only for this instance.
    urls: FileUrlOptions = { secret: randomBytes(32).toString('base64url'), ttlMs: 15 * 60_000, previewTtlMs: 30 * 86_400_000 },
  ) {
    this.signer = new FileUrlSigner(urls.secret);
    this.ttlMs = urls.ttlMs;
    this.previewTtlMs = urls.previewTtlMs;
  }

  put(key: string, data: Buffer): Promise<void> {
    return writeFileAtomically(this.pathOf(key), data);
  }

  /**
   * Writes what `fill` hands its `write` to `key` chunk by chunk, so a large download never sits
   * whole in memory; each write is awaited, so a slow disk slows the producer. Atomic like put: if
   * `fill` fails, nothing is left under the key. Answers the bytes written.
   */
  async putStreamed(key: string, fill: (write: (chunk: Buffer) => Promise<void>) => Promise<unknown>): Promise<number> {
    let bytes = 0;
    await replaceFileAtomically(this.pathOf(key), async (temporary) => {
      const file = await open(temporary, 'wx');
      try {
        await fill(async (chunk) => {
          for (let offset = 0; offset < chunk.length; ) offset += (await file.write(chunk, offset)).bytesWritten;
          bytes += chunk.length;
        });
      } finally {
        await file.close();
      }
    });
    return bytes;
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(this.pathOf(from), target);
  }

  /**
   * Moves a key and everything below it to another key (a rename: atomic on one filesystem).
   * Answers false when there is nothing at `from` (already moved, or never written).
   */
  async move(from: string, to: string): Promise<boolean> {
    const [source, target] = [this.pathOf(from), this.pathOf(to)];
    try {
      await stat(source);
    } catch {
      return false;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await rename(source, target);
    return true;
  }

  /** Removes a key and everything below it. */
  async removeTree(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  /** A signed URL of `key`, valid for `ttlMs` (default FILE_URL_TTL). */
  url(key: string, ttlMs = this.ttlMs): string {
    return this.signedUrl(key, ttlMs).url;
  }

  /**
   * A signed URL of a cover preview, valid for PREVIEW_URL_TTL: lists, status and order history
   * hand these out, and shops put them in e-mails that are read days later. Safe to pass on: the
   * key names the project's random storage folder, never its id (the editor link's credential).
   */
  previewUrl(key: string): string {
    return this.url(key, this.previewTtlMs);
  }

  /** A signed URL of `key` and when it expires (Unix seconds). */
  signedUrl(key: string, ttlMs = this.ttlMs): { url: string; expiresAt: number } {
    const { expires, signature } = this.signer.sign(key, ttlMs);
    const query = new URLSearchParams({ expires: String(expires), signature });
    return { url: `${this.publicUrl}/files/${key}?${query}`, expiresAt: expires };
  }

  /** Whether a request for `key` carried a valid, unexpired signature. */
  verifyUrl(key: string, expires: string | null, signature: string | null): SignatureVerdict {
    return this.signer.verify(key, expires, signature);
  }

  /** Resolves a key to a path inside the root, refusing anything that could escape it. */
  pathOf(key: string): string {
    if (!this.isValidKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }

  isValidKey(key: string): boolean {
    return KEY.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..');
  }
}
