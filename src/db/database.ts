import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ormConfig } from './orm-config';
import { startEmbeddedPostgres } from './embedded-postgres';
import { superviseEmbeddedPostgres } from './embedded-postgres-supervisor';
import { logUnheardConnectionErrors } from './unheard-connection-errors';

const EMBEDDED_DATABASE_NAME = 'photobook';

export interface Database {
  orm: MikroORM;
  /** The URL the ORM connected to (the embedded server's when no DATABASE_URL was set). */
  url: string;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL (or, with `joinRunningEmbedded`, uses
 * the one a running service of this DATA_DIR started), then applies pending migrations.
 */
export async function openDatabase(
  config: Config,
  log: Logger,
  options: { joinRunningEmbedded?: boolean } = {},
): Promise<Database> {
  logUnheardConnectionErrors(log);
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir, log, {
      dataDirIsDefault: config.dataDirIsDefault,
      joinRunning: options.joinRunningEmbedded,
    });
    await ensureDatabaseExists(embedded.serverUrl, EMBEDDED_DATABASE_NAME);
    url = `${embedded.serverUrl}/${EMBEDDED_DATABASE_NAME}`;
    // A database that died is restarted (or the process exits): never a service that is up with
    // no database for good. A joined one is its owner's to look after.
    const supervisor = embedded.server && superviseEmbeddedPostgres(embedded.server, log);
    stopEmbedded = () => {
      supervisor?.release();
      return embedded.stop();
    };
  }
  const orm = await MikroORM.init(ormConfig(url, { poolMax: config.dbPoolMax }));
  try {
    const applied = await withMigrationLock(url, () => orm.getMigrator().up());
    if (applied.length > 0) log.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  } catch (error) {
    await orm.close();
    await stopEmbedded?.();
    throw error;
  }
  return {
    orm,
    url,
    async close() {
      await orm.close();
      await stopEmbedded?.();
    },
  };
}

/** The advisory lock that lets one starting process at a time migrate (replicas start together). */
const MIGRATION_LOCK = 0x70620000;

/** Runs `migrate` (of our schema or DBOS's) while no other process of this database migrates. */
export async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  try {
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await migrate();
  } finally {
    await session.end().catch(() => {});
  }
}

export async function ensureDatabaseExists(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}
