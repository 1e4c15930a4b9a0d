import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/db/orm-config';
import { ClientAdmin, type IssuedClient } from '../../src/services/clients/client-admin';
import { createTestDatabase } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';

const PEPPER = 'shared-limits-test-pepper-0123456789abcdef';
const LIMITS = {
  RATE_LIMIT_MAX: '10',
  RATE_LIMIT_WINDOW: '1m',
  WS_MAX_CONNECTIONS_PER_CLIENT: '2',
  WS_MAX_SUBSCRIPTIONS_PER_CLIENT: '2',
  AUTH_FAILURES_MAX: '4',
};

/**
 * Two service processes (A and B) on one database, as a load balancer spreads one client over them
 * (docs/operations.md, Limits): the published limits hold for the client, not per process, and a
 * subscription hears changes whichever process made them. LIMITS_STORE is left unset: with a
 * DATABASE_URL, the shared store is the default.
 */
describe('limits and subscriptions across two service processes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const dataDirs: string[] = [];
  let a: ServiceProcess;
  let b: ServiceProcess;
  let orm: MikroORM;
  const sockets: Client[] = [];

  const start = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-shared-limits-'));
    dataDirs.push(dataDir);
    return startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: '0',
      TEMPORAL_ADDRESS: undefined,
      LIMITS_STORE: undefined,
      CREDENTIAL_PEPPER: PEPPER,
      ...LIMITS,
    });
  };
  const freshShop = (): Promise<IssuedClient> =>
    new ClientAdmin(orm.em.fork(), PEPPER).create(`Spread shop ${crypto.randomUUID()}`);
  const list = (service: ServiceProcess, auth: Record<string, string>) =>
    request(service.url, 'GET', '/v2/project/list?user=someone', { headers: auth });

  function connect(service: ServiceProcess, shop: IssuedClient, onClosed?: (code: number) => void): Client {
    const { accessKey, accessSecret } = shop.credentials.dev;
    const socket = createClient({
      url: `${service.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { accessKey, accessSecret },
      retryAttempts: 0,
      on: { closed: (event) => onClosed?.((event as { code: number }).code) },
    });
    sockets.push(socket);
    return socket;
  }

  /** 'running' after a second with neither error nor end; the error, or 'complete'. Events go to `events`. */
  function subscribe(socket: Client, user = 'someone', events: unknown[] = []): Promise<string> {
    return new Promise((resolve) => {
      socket.subscribe(
        { query: `subscription { projectStatusChanged(user: "${user}") { projectId status { project } } }` },
        {
          next: (result) => events.push(result.data ?? result.errors),
          error: (error) => resolve(JSON.stringify(error)),
          complete: () => resolve('complete'),
        },
      );
      setTimeout(() => resolve('running'), 1000);
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
    a = await start();
    b = await start();
  }, 240_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await orm?.close();
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('spends one budget per client on both: half on A and half on B, then 429 on either at the published limit', async () => {
    const auth = serviceHeader((await freshShop()).credentials.dev);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await list(a, auth), await list(b, auth));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.map((answer) => answer.headers.get('ratelimit-remaining'))).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);

    for (const service of [a, b]) {
      const limited = await list(service, auth);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // GraphQL over HTTP spends the same budget.
    expect((await post(b.url, '/graphql', { query: '{ markets { results { marketId } } }' }, auth)).status).toBe(429);
  });

  it('refuses graphql-ws connections over the cap spread over A and B with 4429, and frees a slot on one for the other', async () => {
    const shop = await freshShop();
    const onA = connect(a, shop);
    expect(await subscribe(onA)).toBe('running');
    expect(await subscribe(connect(b, shop))).toBe('running');

    for (const service of [a, b]) {
      const closedWith = new Promise<number | 'still open'>((resolve) => {
        void subscribe(connect(service, shop, resolve));
        setTimeout(() => resolve('still open'), 5_000);
      });
      expect(await closedWith).toBe(4429);
    }

    await onA.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await subscribe(connect(b, shop))).toBe('running');
  });

  it('caps running subscriptions per client across A and B', async () => {
    const shop = await freshShop();
    const [onA, onB] = [connect(a, shop), connect(b, shop)];
    expect(await subscribe(onA)).toBe('running');
    expect(await subscribe(onB)).toBe('running');
    expect(await subscribe(onA)).toContain('RATE_LIMITED');
    expect(await subscribe(onB)).toContain('RATE_LIMITED');
  });

  it('tells a subscriber on A of a status change made through B', async () => {
    const shop = await freshShop();
    const projectId = await seedProject(database.url, shop.clientId, 'subscriber-1');
    const events: any[] = [];
    expect(await subscribe(connect(a, shop), 'subscriber-1', events)).toBe('running');

    const deleted = await post(
      b.url,
      '/v2/project/delete',
      { user: 'subscriber-1', type: 'sync', ids: [projectId] },
      serviceHeader(shop.credentials.dev),
    );
    expect(deleted.status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!events.some((event) => event?.projectStatusChanged?.projectId === projectId) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toContainEqual({ projectStatusChanged: expect.objectContaining({ projectId }) });
  });

  // Last: it spends the failed authentications of 127.0.0.1, the address of every request here.
  it('counts failed authentications of an address on both processes: a guesser gets no more tries by being balanced', async () => {
    // Unknown keys: each one is looked up in the database, the lookups the limit protects.
    const guess = () => serviceHeader({ accessKey: `guess-${crypto.randomUUID()}`, accessSecret: 'a-guessed-secret' });
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await list(a, guess())).status, (await list(b, guess())).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    expect((await list(a, guess())).status).toBe(429);
    expect((await list(b, guess())).status).toBe(429);
  });
});

/** One project of `user`, written as the editor would have left it (no renders needed for a delete). */
async function seedProject(databaseUrl: string, clientId: string, user: string): Promise<string> {
  const projectId = `p-shared-${crypto.randomUUID().slice(0, 8)}`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO end_users (id, client_id, env, external_id, created_at) VALUES (gen_random_uuid(), $1, 'dev', $2, now())`,
      [clientId, user],
    );
    await db.query(
      `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type,
                             e_commerce_plugin, metadata, custom, status, photos_status, title, ordered, created_at, updated_at, expires_at)
       SELECT $3, $1, 'dev', u.id, pr.id, m.id, pr.sku, 'local', 'en', 'fastbook', false, '{}', '{}', 'editable', 'idle', 'Book', false, now(), now(), now() + interval '30 days'
       FROM end_users u
       CROSS JOIN LATERAL (SELECT id, sku FROM products WHERE client_id = $1 ORDER BY product_id LIMIT 1) pr
       CROSS JOIN LATERAL (SELECT id FROM markets WHERE client_id = $1 AND market_id = 0) m
       WHERE u.client_id = $1 AND u.env = 'dev' AND u.external_id = $2`,
      [clientId, user, projectId],
    );
  } finally {
    await db.end();
  }
  return projectId;
}
