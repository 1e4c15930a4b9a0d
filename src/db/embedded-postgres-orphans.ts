import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * The embedded PostgreSQL is a child of the service's process, and a child outlives a parent that
 * is SIGKILLed (the kernel's OOM killer does exactly that): the server then runs on with nobody to
 * stop it, and the next start on the same DATA_DIR found it "already running" for good. Two
 * defences, both here:
 * - a watchdog: a tiny shell process holding a pipe from the service; when the service dies, by any
 *   means, the pipe closes and the watchdog stops the server (SIGTERM, then SIGINT, then SIGKILL);
 * - a reclaim at start: a server running on our cluster whose owner (the process recorded in
 *   `DATA_DIR/embedded-postgres-owner.json`) is gone is an orphan of ours: it is stopped the same
 *   way, after checking that it is a postgres serving this very data directory.
 * A server whose owner is alive (another service, or the CLI, on this DATA_DIR) is still refused.
 */

const OWNER_FILE = 'embedded-postgres-owner.json';

/** The process that owns the cluster: its pid and, where /proc tells it, its start time (pids are reused). */
interface Owner {
  pid: number;
  startedAt?: string;
}

/** Signals and waits of the stop, for the watchdog (seconds) and the reclaim alike. */
const FAST_SHUTDOWN_AFTER_S = 5;
const KILL_AFTER_S = 10;

/**
 * The watchdog's script: it reads the service's pipe until it closes (or says `disarm`, at a clean
 * stop, when the service stops the server itself), then stops the postmaster that postmaster.pid
 * names, if that server is still ours. It ignores the terminal's and the orchestrator's signals, so
 * a Ctrl-C to the process group leaves it waiting for the service's own end.
 */
const WATCHDOG_SCRIPT = `
trap '' INT TERM HUP
while read -r line; do [ "$line" = disarm ] && exit 0; done
file="$1/postmaster.pid"
[ -f "$file" ] || exit 0
pid=$(head -n 1 "$file")
dir=$(sed -n 2p "$file")
case "$pid" in ''|*[!0-9]*) exit 0;; esac
[ "$dir" = "$1" ] || exit 0
kill -TERM "$pid" 2>/dev/null || exit 0
i=0
while kill -0 "$pid" 2>/dev/null; do
  i=$((i + 1))
  [ "$i" -eq ${FAST_SHUTDOWN_AFTER_S} ] && kill -INT "$pid" 2>/dev/null
  [ "$i" -ge ${KILL_AFTER_S} ] && { kill -KILL "$pid" 2>/dev/null; exit 0; }
  sleep 1
done
`;

export interface PostgresWatchdog {
  pid: number | undefined;
  /** The server is being stopped on purpose: the watchdog leaves and does nothing. */
  disarm(): void;
}

/**
 * Starts the watchdog of the cluster in `databaseDir` (Linux and macOS: it is a POSIX shell script;
 * elsewhere none, and the reclaim at the next start is the only defence).
 */
export function startPostgresWatchdog(databaseDir: string, log: Logger): PostgresWatchdog {
  if (process.platform === 'win32') return { pid: undefined, disarm() {} };
  const child: ChildProcess = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'photobook-postgres-watchdog', databaseDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', (error) =>
    log.warn(
      { err: error },
      'the embedded PostgreSQL watchdog could not start; an orphan is reclaimed at the next start instead',
    ),
  );
  child.stdin!.on('error', () => {}); // The watchdog gone first: nothing to tell it.
  // It must not keep a process (the CLI) alive that is otherwise done.
  child.unref();
  (child.stdin as unknown as { _handle?: { unref?: () => void } })._handle?.unref?.();
  return {
    pid: child.pid,
    disarm() {
      if (child.exitCode === null && child.stdin?.writable) child.stdin.end('disarm\n');
    },
  };
}

/** Records this process as the owner of the cluster (before the server starts). */
export async function recordOwner(dataDir: string): Promise<void> {
  const owner: Owner = { pid: process.pid, startedAt: await processStartTime(process.pid) };
  await writeFile(path.join(dataDir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
}

/** The cluster is stopped on purpose: nobody owns it any more. */
export async function forgetOwner(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, OWNER_FILE), { force: true });
}

/**
 * Looks at the server postmaster.pid names: none, or a dead one, is PostgreSQL's to clear (returns
 * at once). One whose owner lives is refused with `inUse`. An orphan of ours (a postgres on this
 * data directory whose owner is gone) is stopped, and the start goes on (true: one was stopped).
 */
export async function reclaimOrphanedServer(
  dataDir: string,
  databaseDir: string,
  log: Logger,
  inUse: (pid: number) => Error,
): Promise<boolean> {
  const lock = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lock[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  const owner = await readOwner(dataDir);
  if (owner ? await ownerLives(owner) : !(await reparentedToInit(pid))) throw inUse(pid);
  if (!(await servesDirectory(pid, lock[1] ?? '', databaseDir))) throw inUse(pid);
  log.warn(
    { pid, databaseDir, owner },
    'found an orphaned embedded PostgreSQL on our data directory (its service died without stopping it): stopping it',
  );
  await stopServer(pid);
  log.warn({ pid }, 'stopped the orphaned embedded PostgreSQL');
  return true;
}

/** Whether the process recorded as the cluster's owner is alive (false when none is recorded). */
export async function ownerOfClusterLives(dataDir: string): Promise<boolean> {
  const owner = await readOwner(dataDir);
  return owner !== undefined && (await ownerLives(owner));
}

async function readOwner(dataDir: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(path.join(dataDir, OWNER_FILE), 'utf8')) as Owner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** The owner's pid is alive and (where /proc tells) is the same process, not a later one given its pid. */
async function ownerLives(owner: Owner): Promise<boolean> {
  if (!isAlive(owner.pid)) return false;
  const startedAt = await processStartTime(owner.pid);
  return owner.startedAt === undefined || startedAt === undefined || startedAt === owner.startedAt;
}

/** Without an owner file (a server started by an older release): an orphan is one whose parent died. */
async function reparentedToInit(pid: number): Promise<boolean> {
  const stat = await procStat(pid);
  return stat !== undefined && stat[1] === '1';
}

/** A postgres process whose lock file names `databaseDir` (where /proc tells, its command line too). */
async function servesDirectory(pid: number, lockedDirectory: string, databaseDir: string): Promise<boolean> {
  const same = async (a: string, b: string) =>
    a === b || (await realpath(a).catch(() => a)) === (await realpath(b).catch(() => b));
  if (!(await same(lockedDirectory, databaseDir))) return false;
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (commandLine === undefined) return process.platform !== 'linux';
  const [program] = commandLine.split('\0');
  return path.basename(program ?? '').startsWith('postgres');
}

/** SIGTERM (smart shutdown), SIGINT (fast) after a while, SIGKILL last; resolves once it is gone. */
async function stopServer(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      /* gone already */
    }
  };
  signal('SIGTERM');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited === FAST_SHUTDOWN_AFTER_S * 1000) signal('SIGINT');
    if (waited === KILL_AFTER_S * 1000) signal('SIGKILL');
    if (waited > (KILL_AFTER_S + 10) * 1000)
      throw new Error(`the orphaned embedded PostgreSQL (pid ${pid}) did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's (the postgres user's, when we run as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fields 3 onwards of /proc/<pid>/stat (state, ppid, ...), or undefined without /proc. */
async function procStat(pid: number): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The command name (field 2) is in parentheses and may hold spaces: split after its last `)`.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
export async function processStartTime(pid: number): Promise<string | undefined> {
  return (await procStat(pid))?.[19];
}
