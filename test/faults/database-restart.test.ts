import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { adminQuery } from '../support/global-setup';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

/**
 * PostgreSQL restarted under load, with the service as its own process on a private server: while
 * the database is away every request answers 503 with Retry-After (REST problem, GraphQL
 * SERVICE_UNAVAILABLE), never 500; afterwards everything acknowledged is there and complete.
 */
describe('PostgreSQL restarted under load', () => {
  let postgres: PrivatePostgres | undefined;
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    // A 500 shows up in the log as an error: show the first ones, which say what was not mapped.
    const failures = service?.logs.filter((l) => l.level >= 50) ?? [];
    if (failures.length > 0) console.log(JSON.stringify(failures.slice(0, 3), null, 1));
    if (service?.stderr()) console.log(service.stderr().slice(-3000));
    await service?.stop();
    await postgres?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 + Retry-After while it is down, no 500, and loses nothing acknowledged', async () => {
    postgres = await startPrivatePostgres();
    await adminQuery(postgres.serverUrl, 'CREATE DATABASE photobook');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-fault-'));
    service = await startServiceProcess({
      DATABASE_URL: `${postgres.serverUrl}/photobook`,
      DATA_DIR: dataDir,
      PORT: '0',
      TEMPORAL_ADDRESS: undefined,
      SANDBOX_PRINTER_STEP: '200ms',
    });
    const url = service.url;
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(`${postgres.serverUrl}/photobook`, demo.clientId);
    const auth = serviceHeader(demo.credentials.dev);

    // An order whose fulfilment runs through the restart (the sandbox printer of dev credentials).
    const book = await post(
      url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'restart-order' },
      auth,
    );
    const bookId = new URL(book.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(url, 'GET', `/v2/project/status?id=${bookId}`, { headers: auth })).body.status?.project ===
        'editable',
      60_000,
      'book editable',
    );
    expect((await post(url, '/v2/print', printBody('through-restart', bookId), auth)).status).toBe(200);

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    let load = true;
    let n = 0;
    const worker = async () => {
      while (load) {
        const generated = await post(
          url,
          '/v2/generate',
          { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: `load-${n++ % 5}` },
          auth,
        ).catch(() => undefined);
        if (generated) {
          count(generated.status);
          if (generated.status === 200) acknowledged.push(new URL(generated.body.url).searchParams.get('id')!);
          else if (generated.status === 503) expect(generated.headers.get('retry-after')).toMatch(/^\d+$/);
        }
        const listed = await request(url, 'GET', '/v2/project/list?user=load-1', { headers: auth }).catch(
          () => undefined,
        );
        if (listed) count(listed.status);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await waitFor(async () => acknowledged.length >= 5, 30_000, 'some projects generated before the restart');

    await postgres.stop('fast');
    // Down: both transports say "try again", in their house formats.
    const rest = await post(url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 }, auth);
    expect(rest.status).toBe(503);
    expect(rest.headers.get('content-type')).toContain('application/problem+json');
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(rest.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', title: 'Service Unavailable' });
    expect(JSON.stringify(rest.body)).not.toMatch(/ECONNREFUSED|at .*\.js|select /i);
    const status = await request(url, 'GET', `/v2/project/status?id=${acknowledged[0]}`, { headers: auth });
    expect(status.status).toBe(503);
    const graphql = await post(
      url,
      '/graphql',
      { query: '{ projects(user: "load-1", first: 1) { edges { node { id } } } }' },
      auth,
    );
    expect(graphql.status).toBe(503);
    expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(graphql.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect((await request(url, 'GET', '/readyz')).status).toBe(503);
    // graphql-ws: the socket closes with 1013 Try Again Later, not an internal error.
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: demo.credentials.dev })));
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    expect(closed).toEqual({ code: 1013, reason: expect.stringContaining('SERVICE_UNAVAILABLE') });

    await new Promise((resolve) => setTimeout(resolve, 1500));
    await postgres.start();
    await waitFor(async () => (await request(url, 'GET', '/readyz')).status === 200, 30_000, 'ready again');
    const before = acknowledged.length;
    await waitFor(async () => acknowledged.length >= before + 5, 30_000, 'projects generated after the restart');
    load = false;
    await Promise.all(workers);

    console.log(
      `database restart under load: ${JSON.stringify(Object.fromEntries(statuses))} (status: count), ${acknowledged.length} projects acknowledged`,
    );
    expect([...statuses.keys()].filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.get(503)).toBeGreaterThan(0);
    // The order went on after the restart and walked every status once.
    await waitFor(
      async () =>
        (await post(url, '/graphql', { query: '{ order(orderId: "through-restart") { lines { status } } }' }, auth))
          .body.data?.order?.lines?.[0]?.status === 'complete',
      120_000,
      'the order complete',
    );
    const history = new pg.Client({ connectionString: `${postgres.serverUrl}/photobook` });
    await history.connect();
    const { rows } = await history.query<{ status: string }>(
      `SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = $1 ORDER BY sequence`,
      [`through-restart/${bookId}`],
    );
    await history.end();
    expect(rows.map((r) => r.status)).toEqual([
      'paid',
      'received',
      'processing',
      'rendering',
      'rendered',
      'sending printjob',
      'sent printjob',
      'accepted',
      'printing',
      'printed',
      'delivering',
      'complete',
    ]);
    // Everything acknowledged is there and its build finished.
    for (const id of acknowledged) {
      await waitFor(
        async () =>
          (await request(url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
          'editable',
        60_000,
        `${id} editable`,
      );
    }
  }, 240_000);
});
