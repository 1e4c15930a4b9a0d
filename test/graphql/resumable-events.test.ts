import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { recordStatusChange } from '../../src/events/status-event-log';
import { STATUS_EVENT_LISTENER } from '../../src/events/status-event-bus';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import type { Tenant } from '../../src/services/context';
import {
  StatusEventsDocument,
  type StatusEventsSubscription,
  type StatusEventsSubscriptionVariables,
} from '../support/generated/graphql';
import { startTestService, type TestService } from '../support/harness';
import { waitFor } from '../support/wait';

/** Subscribers resume from their last `sequence`: what they missed is replayed, in order, once. */
describe('subscriptions resume from a sequence', () => {
  let api: TestService;
  let shop: IssuedClient;
  let otherShop: IssuedClient;
  const clients: Client[] = [];
  const tenantOf = (client: IssuedClient): Tenant => ({
    clientId: client.clientId,
    clientName: client.name,
    env: 'dev',
  });

  async function commit(tenant: Tenant, subjectId: string, status: string): Promise<void> {
    const orm = await api.orm();
    await orm.em
      .fork()
      .transactional((tx) => recordStatusChange(tx, tenant, { subjectType: 'project', subjectId, status }));
  }

  function subscribe(client: IssuedClient, variables: StatusEventsSubscriptionVariables) {
    const connection = createClient({
      url: `${api.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: {
        accessKey: client.credentials.dev.accessKey,
        accessSecret: client.credentials.dev.accessSecret,
      },
      retryAttempts: 0,
    });
    clients.push(connection);
    const events: StatusEventsSubscription['statusEvents'][] = [];
    const errors: any[] = [];
    connection.subscribe<StatusEventsSubscription>(
      { query: print(StatusEventsDocument), variables },
      {
        next: (result) => {
          if (result.errors) errors.push(...result.errors);
          if (result.data) events.push(result.data.statusEvents);
        },
        error: (error) => errors.push(error),
        complete: () => undefined,
      },
    );
    return { events, errors, sequences: () => events.map((e) => e.sequence) };
  }

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Resuming shop');
    otherShop = await api.createClient('Other shop');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => api?.stop());

  it('replays the events after afterSequence, then goes on live, each once and in order', async () => {
    const subjectId = `p-${crypto.randomUUID()}`;
    for (const status of ['created', 'building', 'editable']) await commit(tenantOf(shop), subjectId, status);
    const resumed = subscribe(shop, { subjectType: 'project', subjectId, afterSequence: 1 });
    await waitFor(async () => resumed.events.length >= 2, 10_000, 'the replay');
    expect(resumed.events.map((e) => [e.sequence, e.status])).toEqual([
      [2, 'building'],
      [3, 'editable'],
    ]);

    await commit(tenantOf(shop), subjectId, 'ordering');
    await commit(tenantOf(shop), subjectId, 'deleted');
    await waitFor(async () => resumed.events.length >= 4, 10_000, 'the live events');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.sequences()).toEqual([2, 3, 4, 5]);
    expect(resumed.errors).toEqual([]);
  });

  it('loses and repeats nothing when events commit while it replays', async () => {
    const subjectId = `p-${crypto.randomUUID()}`;
    await commit(tenantOf(shop), subjectId, 's1');
    const writing = (async () => {
      for (let i = 2; i <= 30; i++) await commit(tenantOf(shop), subjectId, `s${i}`);
    })();
    const resumed = subscribe(shop, { subjectType: 'project', subjectId, afterSequence: 0 });
    await writing;
    await waitFor(async () => resumed.events.length >= 30, 15_000, 'all 30 events');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resumed.sequences()).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('fills a gap in the live feed (an event the listener never heard) from the table', async () => {
    const subjectId = `p-${crypto.randomUUID()}`;
    await commit(tenantOf(shop), subjectId, 'first');
    const live = subscribe(shop, { subjectType: 'project', subjectId, afterSequence: 0 });
    await waitFor(async () => live.events.length >= 1, 10_000, 'the first event');
    // Written without a NOTIFY, as when the listener was reconnecting during a database restart.
    const orm = await api.orm();
    await orm.em
      .getConnection()
      .execute(
        `INSERT INTO status_events (client_id, env, subject_type, subject_id, status, sequence, detail) VALUES (?, 'dev', 'project', ?, 'unheard', 2, '{}')`,
        [shop.clientId, subjectId],
      );
    await commit(tenantOf(shop), subjectId, 'third');
    await waitFor(async () => live.events.length >= 3, 10_000, 'the unheard event and the next');
    expect(live.events.map((e) => e.status)).toEqual(['first', 'unheard', 'third']);
  });

  it('reads what committed while the listener was reconnecting as soon as it is back', async () => {
    const subjectId = `p-${crypto.randomUUID()}`;
    await commit(tenantOf(shop), subjectId, 'first');
    const live = subscribe(shop, { subjectType: 'project', subjectId, afterSequence: 0 });
    await waitFor(async () => live.events.length >= 1, 10_000, 'the first event');
    // Cut the service's LISTEN connection and keep it from coming back while a change commits: its
    // NOTIFY is lost, and no later event would reveal the gap.
    const orm = await api.orm();
    const connection = orm.em.getConnection();
    const [{ name }] = await connection.execute<{ name: string }[]>('SELECT current_database() AS name');
    const admin = new pg.Client({ connectionString: `${inject('databaseServerUrl')}/postgres` });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    try {
      await connection.execute(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()`,
        [STATUS_EVENT_LISTENER],
      );
      await commit(tenantOf(shop), subjectId, 'while away');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(live.events).toHaveLength(1);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await waitFor(async () => live.events.length >= 2, 15_000, 'the event committed while the listener was away');
    expect(live.events.map((e) => e.status)).toEqual(['first', 'while away']);
  });

  it("replays nothing of another client's subject, and refuses afterSequence where it is ambiguous", async () => {
    const subjectId = `p-${crypto.randomUUID()}`;
    for (const status of ['created', 'building']) await commit(tenantOf(shop), subjectId, status);
    const own = subscribe(shop, { subjectType: 'project', subjectId, afterSequence: 0 });
    const other = subscribe(otherShop, { subjectType: 'project', subjectId, afterSequence: 0 });
    await waitFor(async () => own.events.length >= 2, 10_000, "the owner's replay");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(other.events).toEqual([]);

    const ambiguous = subscribe(shop, { subjectType: 'project', afterSequence: 3 });
    await waitFor(async () => ambiguous.errors.length > 0, 10_000, 'the refusal');
    expect(JSON.stringify(ambiguous.errors)).toContain('afterSequence');
  });
});
