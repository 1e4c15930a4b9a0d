import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive, ownerOfClusterLives } from './embedded-postgres-orphans';

export interface RunningEmbeddedServer {
  pid: number;
  port: number;
}

/**
 * The embedded PostgreSQL another live process of ours (the service, usually) runs on this cluster,
 * read from PostgreSQL's own lock file: `postmaster.pid` holds the server's pid (line 1), data
 * directory (2), port (4) and, once it accepts connections, `ready` (8). An orphan (its owner gone)
 * or a server still starting or stopping is not joined: the caller starts, or reclaims, its own.
 */
export async function runningEmbeddedServer(
  dataDir: string,
  databaseDir: string,
): Promise<RunningEmbeddedServer | undefined> {
  const lock = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lock[0]);
  const port = Number(lock[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  if (lock[7]?.trim() !== 'ready' || !isAlive(pid)) return undefined;
  return (await ownerOfClusterLives(dataDir)) ? { pid, port } : undefined;
}
