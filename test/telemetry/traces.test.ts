import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { printBody } from '../support/print-fixtures';
import { startPrinterStub, type PrinterStub } from '../support/printer-stub';
import { freePort } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const EVENT_SECRET = `whsec_${Buffer.from('trace-test-psp-event-secret-0001').toString('base64')}`;
const JOB_SECRET = `whsec_${Buffer.from('trace-test-printer-job-secret-01').toString('base64')}`;
const RECORD_MODULES = path.resolve(import.meta.dirname, 'record-loaded-modules.mjs');

/** A caller's W3C trace context: version 00, a random trace id, its span id, sampled. */
function callerTraceparent(): { traceparent: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceparent: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

const traceIdOf = (traceparent: string | undefined) => traceparent?.split('-')[1];
const SET_WEBHOOK = 'mutation ($url: String!) { setWebhook(url: $url) { secret } }';

/**
 * One print order crosses two processes (an API and a worker, as deployed) and the DBOS queue between
 * them, then a printer and a shop's webhook over HTTP. With an OTLP endpoint set, every process exports its
 * spans to a collector (a real OTLP/HTTP listener here), all in the trace the shop's request started.
 */
describe('traces across the API, the queue, the worker, the printer and the webhook', () => {
  let api: ServiceProcess | undefined;
  let worker: ServiceProcess | undefined;
  let collector: OtlpReceiver | undefined;
  let shop: WebhookReceiver | undefined;
  let printer: PrinterStub | undefined;
  let photos: PhotoServer | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await Promise.all([collector?.close(), shop?.close(), printer?.close(), photos?.close()]);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("exports one trace from the shop's POST /v2/print to the render, the printer and the webhook", async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-traces-'));
    collector = await startOtlpReceiver();
    shop = await startWebhookReceiver();
    photos = await startPhotoServer({ '/beach.jpg': { body: await makePhoto({ width: 1600, height: 1200 }) } });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    printer = await startPrinterStub({ serviceUrl: () => url, eventSecret: EVENT_SECRET });
    const shared = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      CREDENTIAL_PEPPER: randomBytes(32).toString('base64url'),
      TEMPORAL_ADDRESS: undefined,
      ALLOW_LOOPBACK_URLS: 'true',
      PRINTER: 'http',
      PRINTER_HTTP_URL: printer.url,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      PSP_WEBHOOK_SECRETS: `local=${EVENT_SECRET}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'photobook-trace-test',
    };
    api = await startServiceProcess({ ...shared, ROLE: 'api', PORT: String(port) });
    worker = await startServiceProcess({ ...shared, ROLE: 'worker', PORT: '0', EXECUTOR_ID: 'trace-test-worker' });
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(database.url, demo.clientId);
    const auth = serviceHeader(demo.credentials.prod);
    const set = await post(url, '/graphql', { query: SET_WEBHOOK, variables: { url: shop.url('/hook') } }, auth);
    expect(set.body.errors).toBeUndefined();

    const book = { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'traced', photos: [photos.url('/beach.jpg')] };
    const generated = await post(url, '/v2/generate', book, auth);
    expect(generated.status).toBe(200);
    const projectId = new URL(generated.body.url).searchParams.get('id')!;
    const statusUrl = `/v2/project/status?id=${projectId}`;
    const projectStatus = async () => (await request(url, 'GET', statusUrl, { headers: auth })).body.status;
    await waitFor(async () => (await projectStatus())?.project === 'editable', 90_000, 'editable');

    const caller = callerTraceparent();
    const traced = { ...auth, traceparent: caller.traceparent };
    const printed = await post(url, '/v2/print', printBody('traced-1', projectId), traced);
    expect(printed.status).toBe(200);

    // The shop hears of the line being sent to the printer: a change the worker made, after the render.
    const lineChanges = () => shop!.received.filter((r) => r.body.type === 'order.line.status_changed');
    const lineStatuses = () => lineChanges().map((r) => r.body.data.line.status);
    await waitFor(async () => lineStatuses().includes('complete'), 120_000, 'the webhook of "complete"');

    // The printer and the shop were handed the caller's trace.
    expect(traceIdOf(printer.requests[0].traceparent)).toBe(caller.traceId);
    const workerChange = lineChanges().find((r) => r.body.data.line.status === 'rendered')!;
    expect(traceIdOf(workerChange.headers.traceparent)).toBe(caller.traceId);

    const inTrace = () => collector!.spans.filter((span) => span.traceId === caller.traceId);
    const roleOf = (span: ReceivedSpan) => span.resource['photobook.role'];
    const named = (name: string, role: string) => (span: ReceivedSpan) => span.name === name && roleOf(span) === role;
    const posted = (to: string) => (span: ReceivedSpan) =>
      span.name === 'HTTP POST' && String(span.attributes['url.full']).startsWith(to);
    const webhookPost = posted(shop.url('/hook'));
    await waitFor(
      async () =>
        inTrace().some(named('POST /v2/print', 'api')) &&
        inTrace().some(named('activity renderPages', 'worker')) &&
        inTrace().some(named('activity attemptWebhook', 'worker')) &&
        inTrace().some(webhookPost),
      30_000,
      'the spans of the API request, the render and the webhook delivery',
    );
    // Until the processes' batches stop bringing spans of the trace (every 2 s).
    for (let seen = -1; seen !== inTrace().length; ) {
      seen = inTrace().length;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    const spans = inTrace();
    const summary = [...new Set(spans.map((s) => `${s.resource['photobook.role']}: ${s.name}`))].sort();
    console.log(`trace ${caller.traceId}: ${spans.length} spans\n  ${summary.join('\n  ')}`);
    // The API's request span continues the caller's span; everything else descends from it.
    const requestSpan = spans.find(named('POST /v2/print', 'api'))!;
    expect(requestSpan.parentSpanId).toBe(caller.spanId);
    expect(requestSpan.resource['service.name']).toBe('photobook-trace-test');
    // The render ran on the worker, taken from DBOS's queue; its step (DBOS's span) is its child.
    const render = spans.find(named('activity renderPages', 'worker'))!;
    const renderStep = spans.find((s) => s.name === 'renderPages' && s.scope === 'dbos-tracer');
    expect(renderStep?.parentSpanId).toBe(render.spanId);
    // PostgreSQL, from the request (pg) and the worker's steps (DBOS's spans).
    expect(spans.some((s) => s.resource['photobook.role'] === 'api' && s.scope.includes('pg'))).toBe(true);
    expect(spans.some((s) => s.resource['photobook.role'] === 'worker' && s.scope === 'dbos-tracer')).toBe(true);
    // The printer submission is a client span of the worker, to the printer's URL.
    expect(spans.filter(posted(printer.url)).map((s) => s.resource['photobook.role'])).toContain('worker');
    // GraphQL operations (setWebhook, in a trace of its own).
    expect(collector.spans.some((s) => s.scope.includes('graphql') && roleOf(s) === 'api')).toBe(true);
    // Queries are recorded without their values: no customer's name in the trace store.
    const queries = spans.map((s) => String(s.attributes['db.query.text'] ?? ''));
    expect(queries.some((q) => q.startsWith('INSERT'))).toBe(true);
    expect(queries.filter((q) => q.includes('Lovelace'))).toEqual([]);
    // Every span of the trace hangs on one that is in it, up to the caller's span: one tree.
    const ids = new Set([...spans.map((s) => s.spanId), caller.spanId]);
    expect(spans.filter((s) => !ids.has(s.parentSpanId ?? '')).map((s) => s.name)).toEqual([]);
  }, 300_000);

  it('exports nothing and loads no OpenTelemetry SDK when no endpoint is set', async () => {
    const receiver = await startWebhookReceiver();
    const db = await createTestDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'photobook-untraced-'));
    const recorded = await mkdtemp(path.join(os.tmpdir(), 'photobook-untraced-modules-'));
    let service: ServiceProcess | undefined;
    try {
      // Blank counts as unset (a compose file's `${OTEL_EXPORTER_OTLP_ENDPOINT}` with nothing behind it).
      service = await startServiceProcess({
        DATABASE_URL: db.url,
        DATA_DIR: dir,
        PORT: '0',
        TEMPORAL_ADDRESS: undefined,
        ALLOW_LOOPBACK_URLS: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${RECORD_MODULES}`,
        RECORD_LOADED_MODULES_DIR: recorded,
      });
      const demo = JSON.parse(await readFile(path.join(dir, 'demo-client.json'), 'utf8'));
      const auth = { ...serviceHeader(demo.credentials.dev), traceparent: callerTraceparent().traceparent };
      await post(service.url, '/graphql', { query: SET_WEBHOOK, variables: { url: receiver.url('/hook') } }, auth);
      const sent = await post(service.url, '/graphql', { query: 'mutation { sendTestWebhook { id } }' }, auth);
      expect(sent.body.errors).toBeUndefined();
      await waitFor(async () => receiver.received.length > 0, 30_000, 'the test webhook');
      expect(receiver.received[0].headers.traceparent).toBeUndefined();
      const files = await readdir(recorded);
      const lists = await Promise.all(files.map((file) => readFile(path.join(recorded, file), 'utf8')));
      const loaded = lists.flatMap((list) => list.split('\n'));
      expect(loaded.some((url) => url.includes('/node_modules/pg/'))).toBe(true); // the recorder saw the service load
      // No exporter loaded: no span can leave the process.
      const sdk = /@opentelemetry\/(sdk-|exporter-|instrumentation)|@fastify\/otel/;
      expect(loaded.filter((url) => sdk.test(url))).toEqual([]);
    } finally {
      await service?.stop();
      await receiver.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
      await rm(recorded, { recursive: true, force: true });
    }
  }, 180_000);
});
