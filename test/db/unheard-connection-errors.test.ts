import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { logUnheardConnectionErrors } from '../../src/db/unheard-connection-errors';
import { waitFor } from '../support/wait';

describe('a database connection that dies with no one listening', () => {
  it('is logged with where it was connected, not thrown at the process (57P01 as in a server shutdown)', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    logUnheardConnectionErrors(pino({ level: 'error' }, sink));

    const url = `${inject('databaseServerUrl')}/postgres`;
    const orphan = new pg.Client({ connectionString: url });
    await orphan.connect();
    const { rows } = await orphan.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    } finally {
      await admin.end();
    }

    await waitFor(async () => lines.length > 0, 10_000, 'the error logged');
    expect(lines[0]).toMatchObject({
      err: { code: '57P01' },
      connectedAt: expect.stringContaining('unheard-connection-errors.test.ts'),
    });
    // The owner learns it on its next query.
    await expect(orphan.query('SELECT 1')).rejects.toThrow();
  });
});
