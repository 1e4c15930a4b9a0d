import { copyFile, mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * Files (photo originals, thumbnails, previews, print files) under DATA_DIR/files, addressed by
 * keys like `<client>/<env>/projects/<id>/preview.jpg`. Writes are atomic (temp file + rename), so
 * a retried activity never leaves half a file behind. Public URLs are `PUBLIC_URL/files/<key>`.
 */
export class FileStore {
  constructor(
    readonly root: string,
    private readonly publicUrl: string,
  ) {}

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, data);
    await rename(temp, file);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(this.pathOf(from), target);
  }

  /** Removes a key and everything below it. */
  async removeTree(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  url(key: string): string {
    return `${this.publicUrl}/files/${key}`;
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
