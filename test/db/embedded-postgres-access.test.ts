import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { closedFolderOnTheWay, startEmbeddedPostgres } from '../../src/db/embedded-postgres';

describe('embedded PostgreSQL in a folder only root may enter', () => {
  let closed: string | undefined;
  afterEach(async () => {
    if (closed) await rm(closed, { recursive: true, force: true });
  });

  it('finds the first folder on the way that other users may not enter', async () => {
    closed = await mkdtemp(path.join(os.tmpdir(), 'photobook-closed-')); // mode 700, as mktemp -d
    const inside = path.join(closed, 'data', 'postgres');
    expect(await closedFolderOnTheWay(inside)).toBe(closed);
    await chmod(closed, 0o755);
    expect(await closedFolderOnTheWay(inside)).toBeUndefined();
  });

  it.skipIf(process.getuid?.() !== 0)('stops with a message that says what to change, before running initdb', async () => {
    closed = await mkdtemp(path.join(os.tmpdir(), 'photobook-closed-'));
    const start = startEmbeddedPostgres(path.join(closed, 'data'), pino({ level: 'silent' }));
    await expect(start).rejects.toThrow(/runs as the system user "postgres".*cannot enter .*chmod o\+x .*DATABASE_URL/);
  });
});
