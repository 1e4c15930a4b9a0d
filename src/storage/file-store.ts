import type { Readable } from 'node:stream';
import type { SignatureVerdict } from './file-url-signer';

/** What a download asks for: the request's Range and validators, as the client sent them. */
export interface DownloadRequest {
  /** The Range header (one range of bytes; several ranges are answered with the whole file). */
  range?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: Date;
}

/** The answer to a download: the bytes (all, or the range asked), "not modified", or a range beyond the end. */
export type Download =
  | {
      kind: 'bytes';
      body: Readable;
      contentType: string;
      /** Bytes in `body`. */
      bytes: number;
      /** Size of the whole file. */
      totalBytes: number;
      /** The bytes [start, end] of the file, when a range was asked for and served. */
      range?: { start: number; end: number };
      etag: string;
      lastModified: Date;
    }
  | { kind: 'not-modified'; etag?: string; lastModified?: Date }
  | { kind: 'unsatisfiable'; totalBytes: number };

/**
 * Files (photo originals, thumbnails, previews, print pages and files) addressed by keys like
 * `<client>/<env>/projects/<storage key>/preview.jpg`. Two implementations: a folder on the local
 * disk (the embedded default) and an S3 bucket (FILE_STORE=s3://bucket/prefix), so that API and
 * worker processes on several machines share one store. Every write is atomic: a reader sees the
 * old file or the whole new one, and a failed write leaves nothing under its key. URLs are
 * `PUBLIC_URL/files/<key>?expires=…&signature=…`, signed and expiring, whichever store holds the file.
 */
export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;

  /**
   * Why the store cannot take writes now, or null when it can (`/readyz`): a probe write of a few
   * bytes beside the files, removed again, and on a filesystem at least `minFreeBytes` free. The
   * reason is an operator's sentence (resource-faults.ts), never a path.
   */
  unwritableReason(minFreeBytes: number): Promise<string | null>;

  /**
   * Writes what `fill` hands its `write` to `key` chunk by chunk, so a large file never sits
   * whole in memory; each write is awaited, so a slow store slows the producer. If `fill` fails,
   * nothing is left under the key. Answers the bytes written.
   */
  putStreamed(key: string, fill: (write: (chunk: Buffer) => Promise<void>) => Promise<unknown>): Promise<number>;

  /** Writes the bytes of `source` to `key` (atomically, like putStreamed). */
  putFrom(key: string, source: AsyncIterable<Buffer>): Promise<number>;

  /** The whole file: for files that are small, or needed whole anyway (a page's JPEG, a manifest). */
  get(key: string): Promise<Buffer>;

  /** The file as a stream, opened (rejects when there is no file at `key`). */
  read(key: string): Promise<Readable>;

  exists(key: string): Promise<boolean>;

  /**
   * A file on the local disk holding the bytes of `key`, for a library that reads files itself
   * (libvips decoding an original without its bytes in the JavaScript heap). Valid while
   * `scratchDir` (see withScratchDir) exists: a remote store downloads into it.
   */
  localFile(key: string, scratchDir: string): Promise<string>;

  /** Serves a download of `key` (null when there is no file). */
  download(key: string, request: DownloadRequest): Promise<Download | null>;

  copy(from: string, to: string): Promise<void>;

  /**
   * Moves a key and everything below it to another key. Answers false when there is nothing at
   * `from` (already moved, or never written); a move cut short is finished by the next call.
   */
  move(from: string, to: string): Promise<boolean>;

  /** Removes a key and everything below it. */
  removeTree(prefix: string): Promise<void>;

  /** A signed URL of `key`, valid for `ttlMs` (default FILE_URL_TTL). */
  url(key: string, ttlMs?: number): string;

  /**
   * A signed URL of a cover preview, valid for PREVIEW_URL_TTL: lists, status and order history
   * hand these out, and shops put them in e-mails that are read days later. Safe to pass on: the
   * key names the project's random storage folder, never its id (the editor link's credential).
   */
  previewUrl(key: string): string;

  /** A signed URL of `key` and when it expires (Unix seconds). */
  signedUrl(key: string, ttlMs?: number): { url: string; expiresAt: number };

  /** Whether a request for `key` carried a valid, unexpired signature. */
  verifyUrl(key: string, expires: string | null, signature: string | null): SignatureVerdict;

  isValidKey(key: string): boolean;
}
