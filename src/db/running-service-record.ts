import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive, processStartTime } from './embedded-postgres-orphans';

/**
 * What `npm start` on the embedded PostgreSQL leaves in its DATA_DIR while it runs, for a second start
 * to say what runs where. (On DATABASE_URL, processes may share a DATA_DIR: nothing is recorded.)
 */
export interface RunningServiceRecord {
  pid: number;
  /** Where /proc tells it: the process's start time, so a later process given the same pid is not taken for it. */
  startedAt?: string;
  url: string;
  dataDir: string;
  role: string;
}

const RECORD_FILE = 'running-service.json';

export async function recordRunningService(record: Omit<RunningServiceRecord, 'pid' | 'startedAt'>): Promise<void> {
  const full: RunningServiceRecord = { pid: process.pid, startedAt: await processStartTime(process.pid), ...record };
  await writeFile(path.join(record.dataDir, RECORD_FILE), `${JSON.stringify(full)}\n`);
}

/** At a clean stop; a crash leaves the file, and `runningServiceOf` then finds its process gone. */
export async function forgetRunningService(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, RECORD_FILE), { force: true });
}

/** The service recorded in `dataDir`, if its process still lives. */
async function runningServiceOf(dataDir: string): Promise<RunningServiceRecord | undefined> {
  let record: RunningServiceRecord;
  try {
    record = JSON.parse(await readFile(path.join(dataDir, RECORD_FILE), 'utf8')) as RunningServiceRecord;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(record.pid) || record.pid === process.pid || !isAlive(record.pid)) return undefined;
  const startedAt = await processStartTime(record.pid);
  if (record.startedAt !== undefined && startedAt !== undefined && startedAt !== record.startedAt) return undefined;
  return record;
}

/**
 * What runs where, when another `npm start` of this DATA_DIR runs on its embedded PostgreSQL (undefined
 * otherwise): checked before any database is started.
 */
export async function anotherServiceOnDataDir(dataDir: string): Promise<string | undefined> {
  const running = await runningServiceOf(dataDir);
  if (!running) return undefined;
  return (
    `A photobook service is already running on DATA_DIR ${running.dataDir}: pid ${running.pid}, ` +
    `listening at ${running.url} (ROLE=${running.role}, embedded PostgreSQL). Use that one ` +
    '(`npm run cli -- ...` works beside it), stop it first (Ctrl-C in its terminal, or ' +
    `\`kill ${running.pid}\`), or start this one with another DATA_DIR and PORT.`
  );
}
