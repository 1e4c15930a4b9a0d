import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Runs `work` with a fresh temporary folder of its own, removed afterwards whatever happens: local
 * copies of stored files a job needs as files (FileStore.localFile) live exactly as long as the job.
 */
export async function withScratchDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'photobook-job-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
