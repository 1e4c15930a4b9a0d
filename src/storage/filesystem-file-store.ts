import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import rangeParser from 'range-parser';
import type { Download, DownloadRequest, FileStore } from './file-store';
import { FileStoreBase, oneProcessUrlOptions, type FileUrlOptions } from './file-store-base';
import { assertValidStorageKey, contentTypeOf } from './storage-key';
import { replaceFileAtomically, writeFileAtomically } from './write-file-atomically';
import { classifyResourceFault } from './resource-faults';

/**
 * The embedded store: files under a folder (DATA_DIR/files). Writes go to a temporary file beside
 * the target and are renamed onto it, so a retried activity never leaves half a file behind.
 */
export class FilesystemFileStore extends FileStoreBase implements FileStore {
  constructor(
    readonly root: string,
    publicUrl: string,
    urls: FileUrlOptions = oneProcessUrlOptions(),
  ) {
    super(publicUrl, urls);
  }

  async put(key: string, data: Buffer): Promise<void> {
    await writeFileAtomically(this.pathOf(key), data);
  }

  async unwritableReason(minFreeBytes: number): Promise<string | null> {
    // A dot name: never a storage key, so no file of the service is ever touched.
    const probe = path.join(this.root, `.writable-probe-${process.pid}`);
    try {
      await mkdir(this.root, { recursive: true });
      const { bavail, bsize } = await statfs(this.root);
      const free = bavail * bsize;
      if (free < minFreeBytes)
        return `the file store has ${free} bytes free, less than STORE_MIN_FREE_BYTES (${minFreeBytes})`;
      await writeFile(probe, 'ok');
      return null;
    } catch (error) {
      return (classifyResourceFault(error) as Error).message.replaceAll(this.root, 'DATA_DIR/files');
    } finally {
      await rm(probe, { force: true }).catch(() => undefined);
    }
  }

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

  async get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async read(key: string): Promise<Readable> {
    const file = await open(this.pathOf(key));
    return file.createReadStream();
  }

  async exists(key: string): Promise<boolean> {
    return (await this.fileStat(key)) !== null;
  }

  /** The stored file itself: it is already on the local disk. */
  async localFile(key: string): Promise<string> {
    return this.pathOf(key);
  }

  async download(key: string, request: DownloadRequest): Promise<Download | null> {
    const file = this.pathOf(key);
    const found = await this.fileStat(key);
    if (!found) return null;
    const totalBytes = found.size;
    const lastModified = new Date(Math.floor(found.mtimeMs / 1000) * 1000);
    // As `send` (@fastify/static) makes them: size and modification time.
    const etag = `W/"${totalBytes.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
    if (
      request.ifNoneMatch !== undefined
        ? matchesEtag(request.ifNoneMatch, etag)
        : request.ifModifiedSince && lastModified <= request.ifModifiedSince
    ) {
      return { kind: 'not-modified', etag, lastModified };
    }
    const whole = { kind: 'bytes' as const, contentType: contentTypeOf(key), totalBytes, etag, lastModified };
    const ranges = request.range ? rangeParser(totalBytes, request.range, { combine: true }) : -2;
    if (ranges === -1) return { kind: 'unsatisfiable', totalBytes };
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
      const [{ start, end }] = ranges;
      return { ...whole, body: createReadStream(file, { start, end }), bytes: end - start + 1, range: { start, end } };
    }
    return { ...whole, body: createReadStream(file), bytes: totalBytes };
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(this.pathOf(from), target);
  }

  /** A rename: atomic on one filesystem. */
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

  async removeTree(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  /** Resolves a key to a path inside the root, refusing anything that could escape it. */
  private pathOf(key: string): string {
    assertValidStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  /** The file's stat, or null when there is no file (nothing, or a folder) at `key`. */
  private async fileStat(key: string) {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? found : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return null;
      throw error;
    }
  }
}

/** If-None-Match against an ETag, compared weakly (RFC 9110 13.1.2): `*` or any listed tag. */
function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
