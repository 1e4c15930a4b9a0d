import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config';
import { ormConfig } from '../../src/db/orm-config';
import { TENANT_FILTER } from '../../src/db/tenant-filter';
import { startService, type RunningService } from '../../src/service';
import { ClientAdmin, type IssuedClient } from '../../src/services/clients/client-admin';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';
import { waivePhotoMinimum } from './photo-minimum';

/** A database of its own for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const template = inject('templateDatabase');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: `${serverUrl}/${name}`,
    async drop() {
      const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestService {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The metrics listener's `http://127.0.0.1:<port>/metrics` (METRICS_PORT=0 unless `env` says otherwise). */
  metricsUrl?: string;
  config: Config;
  databaseUrl: string;
  service: RunningService;
  /**
   * Issues a client the way the CLI does, with the demo catalogue; its products' photo minimum
   * (`specifications.min.photos`, 20) is waived (./photo-minimum.ts) unless `photoMinimum: 'demo'` keeps it.
   */
  createClient(name?: string, options?: { photoMinimum?: 'demo' }): Promise<IssuedClient>;
  /** A second ORM on the same database, for assertions and setup that bypass the API, across tenants. */
  orm(): Promise<MikroORM>;
  dropDatabase(): Promise<void>;
  /** Stops and drops the database; `keepData` leaves database and DATA_DIR for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the whole service on a random loopback port with its own database and DATA_DIR; `logger`
 * replaces the silent one (a test that reads what the service logs).
 */
export async function startTestService(
  env: Record<string, string> = {},
  restartOf?: TestService,
  logger?: Logger,
): Promise<TestService> {
  const database = restartOf
    ? { url: restartOf.databaseUrl, drop: restartOf.dropDatabase }
    : await createTestDatabase();
  const dataDir = restartOf?.config.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'photobook-test-')));
  // A concrete port, so PUBLIC_URL (asset links) names the port the service really listens on.
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    ...env,
  });
  const log = logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const service = await startService(config, log);
  const pepper = await loadCredentialPepper(config);
  let extraOrm: MikroORM | undefined;
  return {
    url: service.url,
    ...(service.metricsUrl ? { metricsUrl: service.metricsUrl } : {}),
    config,
    databaseUrl: database.url,
    service,
    async createClient(name = 'Test shop', options = {}) {
      const client = await new ClientAdmin(service.orm.em.fork(), pepper).create(name);
      if (options.photoMinimum !== 'demo') await waivePhotoMinimum(database.url, client.clientId);
      return client;
    },
    async orm() {
      if (!extraOrm) {
        extraOrm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
        // Tests look at every tenant's rows, as an operator would: on this ORM only, the tenant
        // filter is replaced, by name, with one that keeps every row (an EntityManager's filter
        // takes precedence over the entities' filter of the same name).
        extraOrm.em.addFilter(TENANT_FILTER, {}, undefined, true);
      }
      return extraOrm;
    },
    dropDatabase: database.drop,
    async stop(options = {}) {
      await extraOrm?.close();
      await service.stop();
      if (options.keepData) return;
      await database.drop();
      // A file write the stopped service had under way may land while the folder is being removed.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
