import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendStatusEvent,
  recordStatusChange,
  STATUS_EVENTS_CHANNEL,
  type StatusEventMessage,
} from '../../src/events/status-event-log';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { waitFor } from '../support/wait';

/** Every status change goes through the log: numbered per subject, stored, and announced as stored. */
describe('status event log', () => {
  let api: TestService;
  let shop: IssuedClient;
  let listener: pg.Client;
  const heard: StatusEventMessage[] = [];

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Log shop');
    listener = new pg.Client({ connectionString: api.databaseUrl });
    await listener.connect();
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload!) as StatusEventMessage));
    await listener.query(`LISTEN ${STATUS_EVENTS_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await api?.stop();
  });

  it('numbers concurrent writers of one subject 1..n without gaps, and announces exactly what it stored', async () => {
    const orm = await api.orm();
    const tenant = { clientId: shop.clientId, env: 'dev' as const };
    const subjectId = 'p-concurrentwriters000000';
    const change = (i: number) => ({
      subjectType: 'project',
      subjectId,
      status: `s${i}`,
      detail: { writer: i, note: 'it\'s "quoted" ?' },
    });
    // Both writers: through an entity manager's transaction, and plain SQL in a connection's.
    const written = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2 === 0
          ? orm.em.fork().transactional((tx) => recordStatusChange(tx, tenant, change(i)))
          : orm.em
              .getConnection()
              .transactional((trx) => appendStatusEvent(orm.em.getConnection(), trx, tenant, change(i))),
      ),
    );

    expect(written.map((m) => m.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const stored = await orm.em
      .getConnection()
      .execute<{ id: string; sequence: number; status: string; detail: unknown; occurred_at: string }[]>(
        'SELECT id, sequence, status, detail, occurred_at FROM status_events WHERE subject_id = ? ORDER BY sequence',
        [subjectId],
      );
    for (const message of written) {
      const row = stored.find((r) => String(r.id) === message.id)!;
      expect(row.sequence).toBe(message.sequence);
      expect(row.status).toBe(message.status);
      expect(row.detail).toEqual(message.detail);
      expect(new Date(row.occurred_at).toISOString()).toBe(message.occurredAt);
    }
    await waitFor(async () => heard.filter((m) => m.subjectId === subjectId).length === 24);
    const announced = heard.filter((m) => m.subjectId === subjectId);
    for (const message of written) expect(announced.find((m) => m.id === message.id)).toEqual(message);
  });

  it('announces nothing and stores nothing when the writer rolls back', async () => {
    const orm = await api.orm();
    const subjectId = 'p-rolledback0000000000000';
    const connection = orm.em.getConnection();
    await expect(
      connection.transactional(async (trx) => {
        await appendStatusEvent(
          connection,
          trx,
          { clientId: shop.clientId, env: 'dev' },
          { subjectType: 'project', subjectId, status: 'building' },
        );
        throw new Error('the writer changes its mind');
      }),
    ).rejects.toThrow('changes its mind');
    // A later committed event of another subject is heard; the rolled-back one never is.
    await connection.transactional((trx) =>
      appendStatusEvent(
        connection,
        trx,
        { clientId: shop.clientId, env: 'dev' },
        { subjectType: 'project', subjectId: 'p-afterrollback0000000000', status: 'building' },
      ),
    );
    await waitFor(async () => heard.some((m) => m.subjectId === 'p-afterrollback0000000000'));
    expect(heard.some((m) => m.subjectId === subjectId)).toBe(false);
    expect(await connection.execute('SELECT 1 FROM status_events WHERE subject_id = ?', [subjectId])).toEqual([]);
  });
});
