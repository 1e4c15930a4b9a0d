import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where a process keeps the random half of its executor id, per host, under DATA_DIR. */
const IDENTITY_DIR = 'executors';

/**
 * The DBOS executor id of this process: EXECUTOR_ID when set, else `<host name>-<id>` where the id
 * is drawn once and kept in DATA_DIR/executors/<host name>, so a restarted process (same host, same
 * data directory) is the same executor again and recovers its own pending runs at launch. Two
 * processes that end up with one id (two on one host sharing DATA_DIR without EXECUTOR_ID) are
 * refused by the executor lease: the second one stops at start naming the id.
 */
export async function resolveExecutorId(given: string | undefined, dataDir: string): Promise<string> {
  if (given) return given;
  const host =
    os
      .hostname()
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 60) || 'host';
  const file = path.join(dataDir, IDENTITY_DIR, host);
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (/^[a-f0-9]{12}$/.test(kept)) return `${host}-${kept}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const drawn = randomBytes(6).toString('hex');
  await mkdir(path.dirname(file), { recursive: true });
  // `wx`: of two processes drawing at once, one writes and both then read the same id.
  await writeFile(file, `${drawn}\n`, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return `${host}-${(await readFile(file, 'utf8')).trim()}`;
}
