import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';

/** The first key of our advisory locks on executors; the second is a hash of the executor id. */
export const EXECUTOR_LOCK_SPACE = 0x70620001;
/** How often the holder proves its lease connection still answers. */
const HEARTBEAT_MS = 1_000;
/** How long a heartbeat (or a reconnect) may take before the connection counts as lost. */
const CONNECTION_TIMEOUT_MS = 2_000;
/** Between attempts to take a lock back. */
const RETAKE_SPACING_MS = 250;

/** The lease could not be taken because the database did not answer (not because a live twin holds it). */
class ExecutorLeaseUnreachableError extends Error {
  constructor(readonly executorId: string) {
    super(`the executor lease of "${executorId}" could not be taken: the database does not answer`);
    this.name = 'ExecutorLeaseUnreachableError';
  }
}

/** The second key of executor `id`'s advisory lock. */
export function executorLockKey(executorId: string): number {
  return createHash('sha256').update(executorId).digest().readInt32BE(0);
}

export interface ExecutorLeaseOptions {
  databaseUrl: string;
  executorId: string;
  /**
   * An executor whose lock has been free at every look for this long is dead (executor-recovery.ts).
   * Its holder gives up a third of it after losing its lease connection: `onLost` runs then.
   */
  deadAfterMs: number;
  log: Logger;
  /**
   * The lease is gone: the process must stop executing at once, since a live worker may take its
   * runs over (relaunching-engine.ts stops DBOS and launches it again under a new lease).
   */
  onLost(): void;
}

export interface ExecutorLease {
  readonly executorId: string;
  /**
   * Takes the lock of executor `other` if it is free, runs `whileHeld` and lets go; 'held' (and
   * nothing run) when a live process holds it or the lease connection is not up.
   */
  whileFree(other: string, whileHeld: () => Promise<void>): Promise<'free' | 'held'>;
  release(): Promise<void>;
}

/**
 * Proves that this process is alive as executor `executorId`: a PostgreSQL session advisory lock on
 * a connection of its own, held for the life of the process. The lock goes with the session, so a
 * process that dies (or whose host does: the server's TCP keepalives, set short on this session, end
 * it) frees it, and a live worker may then recover its runs. A live process never lets another take
 * over its runs: a heartbeat notices a lost connection within seconds, the lock is taken back on a
 * new one, and a process that cannot take it back within a third of `deadAfterMs` stops executing (`onLost`)
 * well before any worker would call it dead. At start, a lock held by another live process (the same
 * id twice) stops this one; a database that does not answer throws ExecutorLeaseUnreachableError.
 */
export async function acquireExecutorLease({
  databaseUrl,
  executorId,
  deadAfterMs,
  log,
  onLost,
}: ExecutorLeaseOptions): Promise<ExecutorLease> {
  const key = executorLockKey(executorId);
  const graceMs = Math.floor(deadAfterMs / 3);
  let connection: pg.Client | undefined;
  let released = false;
  let heartbeat: NodeJS.Timeout | undefined;

  /** A new session holding our lock, or undefined when the lock is held elsewhere. */
  const takeLock = async (): Promise<pg.Client | undefined> => {
    const client = new pg.Client({
      connectionString: databaseUrl,
      application_name: `photobook-executor:${executorId}`.slice(0, 63),
      keepAlive: true,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      query_timeout: CONNECTION_TIMEOUT_MS,
    });
    client.on('error', () => {}); // A lost session is noticed by the heartbeat.
    try {
      await client.connect();
      // The server notices a vanished host within about 11 s and ends the session (and the lock).
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        EXECUTOR_LOCK_SPACE,
        key,
      ]);
      if (rows[0]!.locked) return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    await client.end().catch(() => {});
    return undefined;
  };

  /** Whether the last failed attempt failed to reach the database (rather than finding the lock held). */
  let unreachable = false;
  /** Tries until `deadline`; connection errors count as "not yet". */
  const takeLockBy = async (deadline: number): Promise<pg.Client | undefined> => {
    for (;;) {
      unreachable = false;
      const client = await takeLock().catch(() => {
        unreachable = true;
        return undefined;
      });
      if (client || Date.now() >= deadline) return client;
      await new Promise((resolve) => setTimeout(resolve, RETAKE_SPACING_MS));
    }
  };

  const lost = async () => {
    const gone = connection;
    connection = undefined;
    await gone?.end().catch(() => {});
    if (released) return;
    log.warn({ executorId }, 'executor lease connection lost; taking the lock back');
    const back = await takeLockBy(Date.now() + graceMs);
    if (released) {
      await back?.end().catch(() => {});
      return;
    }
    if (!back) {
      log.error(
        { executorId, graceMs },
        "executor lease not taken back in time: no more flows run here until it is, so that a live worker may take over this executor's runs",
      );
      onLost();
      return;
    }
    connection = back;
    log.info({ executorId }, 'executor lease taken back');
  };

  // At start a worker may hold our lock for a moment (looking at it, or recovering the runs of our
  // previous life): wait for it, but not for a live twin.
  connection = await takeLockBy(Date.now() + deadAfterMs);
  if (!connection && unreachable) throw new ExecutorLeaseUnreachableError(executorId);
  if (!connection) {
    throw new Error(
      `Executor id "${executorId}" is in use by another live process: give each process its own EXECUTOR_ID (or its own DATA_DIR)`,
    );
  }
  // One statement at a time on the session: heartbeats and the locks of other executors take turns.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work, work);
    turn = next.catch(() => {});
    return next;
  };
  let beating = false;
  heartbeat = setInterval(() => {
    if (beating || released) return;
    beating = true;
    const current = connection;
    const beat = current ? inTurn(() => current.query('SELECT 1')) : Promise.resolve();
    void beat
      .then(
        () => undefined,
        () => (connection === current ? lost() : undefined),
      )
      .finally(() => {
        beating = false;
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    executorId,
    async whileFree(other, whileHeld) {
      const session = connection;
      if (!session) return 'held';
      const otherKey = [EXECUTOR_LOCK_SPACE, executorLockKey(other)];
      const { rows } = await inTurn(() =>
        session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', otherKey),
      );
      if (!rows[0]!.locked) return 'held';
      try {
        await whileHeld();
      } finally {
        await inTurn(() => session.query('SELECT pg_advisory_unlock($1, $2)', otherKey)).catch(() => {});
      }
      return 'free';
    },
    async release() {
      released = true;
      clearInterval(heartbeat);
      const last = connection;
      connection = undefined;
      await last?.end().catch(() => {});
    },
  };
}
