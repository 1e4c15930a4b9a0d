import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXECUTOR_LOCK_SPACE,
  acquireExecutorLease,
  executorLockKey,
  type ExecutorLease,
} from '../../src/engine/executor-lease';
import { startExecutorRecovery } from '../../src/engine/executor-recovery';
import { createTestDatabase } from '../support/harness';

const log = pino({ level: 'silent' });

/**
 * Leases are real advisory locks on a real database; what a recovery does (DBOS's
 * recoverPendingWorkflows) is recorded instead, since the question here is only when it runs.
 */
describe('executor leases and the takeover of dead executors', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const leases: ExecutorLease[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const lease of leases) await lease.release();
    await database.drop();
  });

  const lease = async (executorId: string, deadAfterMs = 1_500, onLost = () => {}) => {
    const taken = await acquireExecutorLease({ databaseUrl: database.url, executorId, deadAfterMs, log, onLost });
    leases.push(taken);
    return taken;
  };

  it('refuses a second live process with the same executor id, naming it', async () => {
    await lease('twin');
    await expect(lease('twin', 600)).rejects.toThrow(/Executor id "twin" is in use by another live process/);
  });

  it("never recovers a live executor's runs, and recovers a dead one's once its lock stayed free for the dead-after time", async () => {
    const deadAfterMs = 1_500;
    const sweeper = await lease('sweeper', deadAfterMs);
    const alive = await lease('alive', deadAfterMs);
    const doomed = await lease('doomed', deadAfterMs);
    const recovered: { id: string; at: number }[] = [];
    const recovery = startExecutorRecovery({
      lease: sweeper,
      executorsWithPendingRuns: async () => ['alive', 'doomed'],
      recover: async (id) => {
        recovered.push({ id, at: Date.now() });
        return 1;
      },
      deadAfterMs,
      intervalMs: 100,
      log,
    });
    await new Promise((resolve) => setTimeout(resolve, deadAfterMs * 2));
    expect(recovered).toEqual([]);

    const diedAt = Date.now();
    await doomed.release();
    await new Promise((resolve) => setTimeout(resolve, deadAfterMs * 2));
    await recovery.stop();
    expect(recovered.map((r) => r.id)).toEqual(['doomed']);
    expect(recovered[0]!.at - diedAt).toBeGreaterThanOrEqual(deadAfterMs);
    expect(alive.executorId).toBe('alive');
  });

  it('takes its lock back after its session is ended, before anyone may call it dead', async () => {
    let lost = false;
    const deadAfterMs = 3_000;
    await lease('reconnecting', deadAfterMs, () => (lost = true));
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const holders = async () =>
        (
          await admin.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid::int4 = $1 AND granted`, [
            executorLockKey('reconnecting'),
          ])
        ).rows as { pid: number }[];
      const [before] = await holders();
      await admin.query('SELECT pg_terminate_backend($1)', [before!.pid]);
      // The heartbeat notices within a couple of seconds and takes the lock on a new session.
      const deadline = Date.now() + deadAfterMs / 3 + 3_000;
      let after: { pid: number } | undefined;
      while (Date.now() < deadline && !(after && after.pid !== before!.pid)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [after] = await holders();
      }
      expect(after?.pid).toBeDefined();
      expect(after!.pid).not.toBe(before!.pid);
      expect(lost).toBe(false);
    } finally {
      await admin.end();
    }
  });

  it('stops the process (onLost) when it cannot take its lock back in time', async () => {
    let lost = false;
    const deadAfterMs = 1_500;
    await lease('usurped', deadAfterMs, () => (lost = true));
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid::int4 = $1 AND granted`,
        [executorLockKey('usurped')],
      );
      // Someone else holds the lock the moment the session ends (as a sweeper might): it cannot be taken back.
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await admin.query('SELECT pg_advisory_lock($1, $2)', [EXECUTOR_LOCK_SPACE, executorLockKey('usurped')]);
      const deadline = Date.now() + deadAfterMs + 4_000;
      while (!lost && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lost).toBe(true);
    } finally {
      await admin.end();
    }
  });
});
