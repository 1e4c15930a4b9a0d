import os from 'node:os';
import path from 'node:path';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { ormConfig } from '../../src/db/orm-config';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { DBOS_SCHEMA } from '../../src/engine/dbos-names';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL without database; tests create their own databases from `templateDatabase`. */
    databaseServerUrl: string;
    templateDatabase: string;
  }
}

/**
 * Finds a PostgreSQL (DATABASE_URL's server, or an embedded one) and prepares a migrated template
 * database; each test file then clones its own database from it in milliseconds.
 */
export default async function setup(project: TestProject) {
  const log = pino({ level: 'warn' });
  let serverUrl: string;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '';
    serverUrl = url.toString().replace(/\/$/, '');
  } else {
    const embedded = await startEmbeddedPostgres(path.join(os.tmpdir(), 'photobook-test-postgres'), log);
    serverUrl = embedded.serverUrl;
    stopEmbedded = embedded.stop;
  }

  const template = `photobook_template_${process.pid}`;
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${template}`);
  await adminQuery(serverUrl, `CREATE DATABASE ${template}`);
  const orm = await MikroORM.init(ormConfig(`${serverUrl}/${template}`));
  await orm.getMigrator().up();
  await orm.close();
  // The embedded workflow engine's tables too, so each clone need not create them at launch.
  await DBOS.migrate(`${serverUrl}/${template}`, { schemaName: DBOS_SCHEMA });

  project.provide('databaseServerUrl', serverUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await dropTestDatabases(serverUrl, template);
    await stopEmbedded?.();
  };
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function dropTestDatabases(serverUrl: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [template, `${template}_%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
