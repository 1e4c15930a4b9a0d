import type { DLogger } from '@dbos-inc/dbos-sdk';
// DBOS's tables have no public API for these: its system database, its schema migration and the
// executors owning pending runs are reached through its internals, here and nowhere else in src/engine.
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { ensureSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
import type { Logger } from 'pino';
import { APPLICATION_NAME, DBOS_SCHEMA, FLOW_CODE_VERSION } from './dbos-names';

/**
 * Creates or migrates DBOS's tables. DBOS.launch does it too, but unserialised: replicas starting
 * together would race. An API process (a DBOSClient) never does it, and may be the first to start.
 */
export async function migrateDbosSchema(databaseUrl: string, log: Logger): Promise<void> {
  await ensureSystemDatabase(
    databaseUrl,
    new GlobalLogger(undefined, { logger: dbosLogger(log) }),
    undefined,
    DBOS_SCHEMA,
  );
}

/** Executors other than `executorId` that own pending runs of this version: candidates for a takeover. */
export async function executorsWithPendingRuns(executorId: string): Promise<string[]> {
  // One DISTINCT over the status index, not a listing of every pending run (fulfilments wait for days).
  const { pool, schemaName } = DBOSExecutor.globalInstance!.systemDatabase;
  const { rows } = await pool.query<{ executor_id: string }>(
    `SELECT DISTINCT executor_id FROM "${schemaName}".workflow_status
      WHERE status = 'PENDING' AND application_version = $1 AND executor_id <> $2 AND (application_name = $3 OR application_name IS NULL)`,
    [FLOW_CODE_VERSION, executorId, APPLICATION_NAME],
  );
  return rows.map((row) => row.executor_id);
}

/**
 * Hands the pending runs of `executorId` back to their queues through DBOS's own recovery (no public
 * entry point since its admin server went); returns how many.
 */
export async function recoverPendingRunsOf(executorId: string): Promise<number> {
  return (await DBOSExecutor.globalInstance!.recoverPendingWorkflows([executorId])).length;
}

/** DBOS's log lines go to our logger, its chatty lifecycle messages at debug level. */
export function dbosLogger(log: Logger): DLogger {
  const write = (level: 'debug' | 'warn' | 'error') => (entry: unknown) => {
    if (entry instanceof Error) log[level]({ err: entry }, entry.message);
    else log[level](typeof entry === 'string' ? entry : JSON.stringify(entry));
  };
  return { info: write('debug'), debug: write('debug'), warn: write('warn'), error: write('error') };
}
