import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { haproxyPath, startCluster, type Cluster, type ClusterMember } from '../support/cluster';
import { createTestDatabase } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto } from '../support/photo-server';
import { printBody } from '../support/print-fixtures';
import { startS3TestServer, type S3TestServer } from '../support/s3-test-server';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const FULFILMENT = [
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
];
const HAPROXY = haproxyPath();

/**
 * Two API processes and two workers on one database behind HAProxy, each a real process on
 * loopback: the API answers through the balancer, subscriptions hear what other processes change,
 * and killing a worker mid-render or mid-build, or an API process under load, loses and
 * duplicates nothing acknowledged.
 */
describe.skipIf(!HAPROXY)('a cluster of 2 API processes and 2 workers behind HAProxy', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let cluster: Cluster;
  let db: pg.Client;
  let auth: Record<string, string>;
  let credentials: { accessKey: string; accessSecret: string };
  let clientId: string;
  let photos: http.Server;
  let photoBase: string;
  let s3: S3TestServer;
  let bucket: S3Client;
  const sockets: Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // Files in object storage, as on several machines: no process reads another's disk.
    s3 = await startS3TestServer();
    bucket = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    cluster = await startCluster({
      databaseUrl: database.url,
      env: {
        ...s3.env,
        ALLOW_LOOPBACK_URLS: 'true',
        SANDBOX_PRINTER_STEP: '200ms',
        // A killed worker's runs move within seconds, so the test stays short.
        EXECUTOR_DEAD_AFTER: '3s',
        EXECUTOR_RECOVERY_INTERVAL: '500ms',
      },
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const issued = JSON.parse(await cluster.cli('client', 'create', '--name', 'Cluster shop', '--json'));
    clientId = issued.clientId;
    // These orders test the cluster, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(database.url, clientId);
    credentials = issued.credentials.dev;
    auth = serviceHeader(credentials);
    // Photos served slowly (one at a time, 700 ms each), so a build is under way long enough to kill its worker.
    const photo = await makePhoto({ width: 1200, height: 900 });
    let queue = Promise.resolve();
    photos = http.createServer((_request, response) => {
      queue = queue
        .then(() => new Promise((resolve) => setTimeout(resolve, 700)))
        .then(() => {
          response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
        });
    });
    await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
    photoBase = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) await socket.dispose();
    const problems = cluster?.problems();
    if (problems) console.log(problems.slice(0, 6000));
    await db?.end();
    await cluster?.stop();
    await new Promise((resolve) => photos?.close(resolve));
    await database?.drop();
    bucket?.destroy();
    await s3?.stop();
  });

  const query = async <T = Record<string, unknown>>(sql: string, values: unknown[] = []) =>
    (await db.query(sql, values)).rows as T[];

  const generate = async (base: string, body: Record<string, unknown> = {}) => {
    const response = await post(
      base,
      '/v2/generate',
      { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'cluster', ...body },
      auth,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return new URL(response.body.url).searchParams.get('id')!;
  };
  const projectStatus = async (id: string) =>
    (await request(cluster.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project;
  const untilEditable = (id: string, timeoutMs = 90_000) =>
    waitFor(async () => (await projectStatus(id)) === 'editable', timeoutMs, `${id} editable`);
  const lineStatus = async (orderId: string) =>
    (await post(cluster.url, '/graphql', { query: `{ order(orderId: "${orderId}") { lines { status } } }` }, auth)).body
      .data?.order?.lines?.[0]?.status;
  const orderHistory = async (orderId: string, projectId: string) =>
    (
      await query<{ status: string }>(
        `SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = $1 ORDER BY sequence`,
        [`${orderId}/${projectId}`],
      )
    ).map((row) => row.status);
  /** The worker whose executor holds a pending run of `workflowName` (it is executing it now). */
  const workerRunning = async (workflowName: string): Promise<ClusterMember | undefined> => {
    const rows = await query<{ executor_id: string }>(
      `SELECT executor_id FROM dbos.workflow_status WHERE name = $1 AND status = 'PENDING'`,
      [workflowName],
    );
    return cluster.workers.find(
      (worker) =>
        worker.child.exitCode === null &&
        worker.child.signalCode === null &&
        rows.some((row) => row.executor_id === worker.executorId),
    );
  };

  it('hears on API 1, over graphql-ws, the changes made through API 2 and by the workers', async () => {
    const projectId = await generate(cluster.url);
    await untilEditable(projectId);
    const received: string[] = [];
    const errors: unknown[] = [];
    const socket = createClient({
      url: `${cluster.apis[0]!.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: credentials,
      retryAttempts: 0,
    });
    sockets.push(socket);
    socket.subscribe<{ orderStatusChanged: { status: string } }>(
      { query: 'subscription { orderStatusChanged(orderId: "heard-1") { status } }' },
      {
        next: (result) =>
          result.data ? received.push(result.data.orderStatusChanged.status) : errors.push(result.errors),
        error: (error) => errors.push(error),
        complete: () => undefined,
      },
    );
    // No acknowledgement in the protocol: give the subscription a moment to listen, then order through API 2.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await post(cluster.apis[1]!.url, '/v2/print', printBody('heard-1', projectId), auth)).status).toBe(200);
    await waitFor(
      async () => received.includes('complete'),
      60_000,
      `'complete' on API 1 (so far ${JSON.stringify(received)}, errors ${JSON.stringify(errors)})`,
    );
    // Live, in order, none twice: every event API 1 pushed is the fulfilment's, at its place.
    expect(received).toEqual(FULFILMENT.slice(FULFILMENT.indexOf(received[0]!)));
    expect(received.length).toBeGreaterThan(5);
  });

  it('answers REST and GraphQL through the balancer from both API processes', async () => {
    const projectId = await generate(cluster.url, { photos: [`${photoBase}/a.jpg`, `${photoBase}/b.jpg`] });
    await untilEditable(projectId);
    const { body: graphql } = await post(
      cluster.url,
      '/graphql',
      { query: `{ project(id: "${projectId}") { id photos { status } pages { photos { photoId } } } }` },
      auth,
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.project.photos).toEqual([{ status: 'idle' }, { status: 'idle' }]);
    const preflight = await request(cluster.url, 'GET', `/v2/project/preflight?id=${projectId}`, { headers: auth });
    expect(preflight.status).toBe(200);
    expect((await post(cluster.url, '/v2/print', printBody('balanced-1', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineStatus('balanced-1')) === 'complete', 90_000, 'balanced-1 complete');
    const order = await request(cluster.url, 'GET', '/v2/order?orderId=balanced-1', { headers: auth });
    expect(order.status).toBe(200);
    expect(await orderHistory('balanced-1', projectId)).toEqual(FULFILMENT);
    // Round robin: each API process has answered requests; the workers answer no API route.
    for (const api of cluster.apis) {
      expect((await fetch(`${api.url}/metrics`)).status, 'metrics are not on the public port').toBe(404);
      const metrics = await (await fetch(api.metricsUrl!)).text();
      expect(metrics, api.name).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/v2\/project\/status"[^}]*\} [1-9]/,
      );
    }
    const fromWorker = await request(cluster.workers[0]!.url, 'GET', `/v2/project/status?id=${projectId}`, {
      headers: auth,
    });
    expect(fromWorker.status).toBe(404);
    expect((await request(cluster.workers[0]!.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('finishes every order and build once when a worker is killed mid-render and another mid-build', async () => {
    // Renders: three editable books, ordered at once.
    const books = await Promise.all([1, 2, 3].map(() => generate(cluster.url)));
    await Promise.all(books.map((id) => untilEditable(id)));
    const orders = books.map((projectId, i) => ({ orderId: `killed-render-${i}`, projectId }));
    for (const { orderId, projectId } of orders)
      expect((await post(cluster.url, '/v2/print', printBody(orderId, projectId), auth)).status).toBe(200);
    const renderer = await waitFor(() => workerRunning('activity:renderPages'), 60_000, 'a render under way');
    // In the middle: some pages of some order are in the store, not all.
    const pagesStored = async () => {
      const listed = await bucket.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `files/${clientId}/dev/orders/` }),
      );
      return (listed.Contents ?? []).filter((object) => object.Key?.includes('/pages/')).length;
    };
    await waitFor(async () => (await pagesStored()) >= 1, 60_000, 'first pages rendered');
    await renderer.kill();
    await cluster.startWorker();

    // Builds: three projects whose photos arrive slowly; kill a worker while one is downloading.
    const builds = await Promise.all(
      [1, 2, 3].map((n) =>
        generate(cluster.url, { userId: `slow-${n}`, photos: [1, 2, 3].map((p) => `${photoBase}/${n}-${p}.jpg`) }),
      ),
    );
    const builder = await waitFor(() => workerRunning('projectBuild'), 30_000, 'a build under way');
    await builder.kill();

    for (const { orderId } of orders)
      await waitFor(async () => (await lineStatus(orderId)) === 'complete', 120_000, `${orderId} complete`);
    for (const id of builds) await untilEditable(id, 120_000);

    // Exactly once: each order walked every status once, was submitted to the printer once, and has all its pages.
    for (const { orderId, projectId } of orders) {
      expect(await orderHistory(orderId, projectId)).toEqual(FULFILMENT);
      const [line] = await query<{ id: string }>(
        `SELECT l.id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_id = $1`,
        [orderId],
      );
      const submissions = await query(
        `SELECT 1 FROM dbos.operation_outputs o JOIN dbos.workflow_status w ON w.workflow_uuid = o.workflow_uuid
          WHERE (w.workflow_uuid = $1 OR w.parent_workflow_id = $1) AND o.function_name = 'submitPrintJob'`,
        [`fulfilment:${line!.id}`],
      );
      expect(submissions, orderId).toHaveLength(1);
    }
    // Each build: its photos once, no status twice.
    for (const id of builds) {
      const [{ count }] = await query<{ count: string }>(`SELECT count(*) FROM photos WHERE project_id = $1`, [id]);
      expect(Number(count), id).toBe(3);
      // A status may repeat with other details (photos downloading, then analysed), never the same change twice.
      const changes = (
        await query<{ change: string }>(
          `SELECT status || ' ' || detail::text AS change FROM status_events WHERE subject_type = 'project' AND subject_id = $1 ORDER BY sequence`,
          [id],
        )
      ).map((r) => r.change);
      expect(new Set(changes).size, JSON.stringify(changes)).toBe(changes.length);
      expect(changes.at(-1)).toMatch(/^editable /);
    }
    // Every file went to the bucket: no process wrote one to the shared DATA_DIR.
    expect(await readdir(path.join(cluster.dataDir, 'files')).catch(() => [])).toEqual([]);
    // The dead executors own nothing any more: their runs moved to live workers.
    const orphaned = await query(
      `SELECT workflow_uuid FROM dbos.workflow_status WHERE status = 'PENDING' AND executor_id = ANY($1)`,
      [[renderer.executorId, builder.executorId]],
    );
    expect(orphaned).toEqual([]);
  }, 300_000);

  it('loses no acknowledged request when an API process is killed under load', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let load = true;
    let n = 0;
    // Each request carries an Idempotency-Key and is retried with it until answered, as an integrator's client does.
    // A request the killed process was handling keeps its key claimed (409 IDEMPOTENCY_KEY_IN_FLIGHT)
    // until the claim is abandoned (minutes): such a key is set aside, as a client would retry it later.
    const keys = new Map<string, string>();
    const inFlight = new Set<string>();
    const client = async () => {
      while (load) {
        const key = crypto.randomUUID();
        const body = { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: `load-${n++ % 4}` };
        for (let attempt = 0; attempt < 10 && !keys.has(key); attempt++) {
          const response = await post(cluster.url, '/v2/generate', body, { ...auth, 'idempotency-key': key }).catch(
            () => undefined,
          );
          if (response) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response?.status === 200) {
            const id = new URL(response.body.url).searchParams.get('id')!;
            acknowledged.push(id);
            keys.set(key, id);
          } else if (response?.status === 409) {
            expect(response.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
            inFlight.add(key);
            break;
          } else {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await waitFor(async () => acknowledged.length >= 10, 30_000, 'load under way');
    await cluster.apis[1]!.kill();
    const before = acknowledged.length;
    await waitFor(async () => acknowledged.length >= before + 10, 30_000, 'answers from the API process left');
    load = false;
    await Promise.all(clients);
    console.log(
      `API process killed under load: ${JSON.stringify(Object.fromEntries(statuses))} (status: count), ${acknowledged.length} acknowledged, ${inFlight.size} in flight at the kill`,
    );
    // Only gateway errors for requests the dead process had accepted, and the in-flight key's 409; never a 500 of ours.
    expect(
      [...statuses.keys()].filter((status) => status !== 200 && status !== 409 && status !== 502 && status !== 503),
    ).toEqual([]);
    const stored = new Set(
      (await query<{ id: string }>(`SELECT id FROM projects WHERE id = ANY($1)`, [acknowledged])).map((row) => row.id),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // Exactly once: a retried request answered its first project, and no request made two (a
    // request cut off with its process made its project or not).
    expect(new Set(acknowledged).size).toBe(keys.size);
    const [{ count }] = await query<{ count: string }>(
      `SELECT count(*) FROM projects p JOIN end_users u ON u.id = p.owner_id WHERE u.external_id LIKE 'load-%' AND p.client_id = $1`,
      [clientId],
    );
    expect(Number(count)).toBeGreaterThanOrEqual(keys.size);
    expect(Number(count)).toBeLessThanOrEqual(keys.size + inFlight.size);
    for (const id of acknowledged) await untilEditable(id);
  }, 240_000);
});
