import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A fresh temporary name beside `file` (same folder, so a rename onto `file` is atomic). */
export function temporaryNameBeside(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * `fill` writes a temporary file beside `file`, which is then renamed onto it: a reader sees the old
 * file or the whole new one, never a part. A failed fill leaves no temporary file behind.
 */
export async function replaceFileAtomically(file: string, fill: (temporary: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryNameBeside(file);
  try {
    await fill(temporary);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Writes `data` to `file` atomically (see {@link replaceFileAtomically}). */
export function writeFileAtomically(file: string, data: Buffer): Promise<void> {
  return replaceFileAtomically(file, (temporary) => writeFile(temporary, data));
}
