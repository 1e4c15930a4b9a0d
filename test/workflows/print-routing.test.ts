import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { graphql } from '../support/graphql';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

const JOB_SECRET = `whsec_${Buffer.from('routing-test-printer-job-secret1').toString('base64')}`;

/**
 * A print partner's job endpoint on 127.0.0.1 (the HTTP printer's protocol, docs/print-production.md):
 * `ok` takes every job once per key and answers its id; `outage` answers a job's first request 503
 * and then keeps every later request waiting for good, though the job exists once such a request
 * arrived (the answer is what is lost). Cancels are recorded and confirmed.
 */
async function startFlakyPrinter() {
  const state = {
    mode: 'ok' as 'ok' | 'outage',
    requests: [] as { projectId: string; jobKey: string; answer: number | 'hung'; at: number }[],
    cancels: [] as { jobId: string; jobKey: string; projectId: string }[],
    jobs: new Map<string, string>(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const cancel = /^\/jobs\/([^/]+)\/cancel$/.exec(req.url ?? '');
      if (cancel) {
        state.cancels.push({ jobId: decodeURIComponent(cancel[1]), jobKey: body.jobKey, projectId: body.projectId });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const seen = state.requests.some((r) => r.jobKey === body.jobKey);
      const record = (answer: number | 'hung') =>
        state.requests.push({ projectId: body.projectId, jobKey: body.jobKey, answer, at: Date.now() });
      if (state.mode === 'outage' && !seen) {
        record(503);
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"overloaded"}');
        return;
      }
      if (!state.jobs.has(body.jobKey)) state.jobs.set(body.jobKey, `flaky-${state.jobs.size + 1}`);
      if (state.mode === 'outage') {
        record('hung');
        return; // never answered
      }
      record(201);
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jobId: state.jobs.get(body.jobKey) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const SET_ROUTING = `mutation ($input: PrintRoutingInput!) {
  setPrintRouting(input: $input) { rules { match { products countries } printers } defaultPrinters holdWindowSeconds acceptTimeoutSeconds }
}`;

describe('print routing, failover and the hold window (live printers over real HTTP, embedded flows)', () => {
  let api: TestService;
  let printer: Awaited<ReturnType<typeof startFlakyPrinter>>;
  let auth: Record<string, string>;
  let devAuth: Record<string, string>;

  beforeAll(async () => {
    printer = await startFlakyPrinter();
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      PRINTER: 'http',
      PRINTER_HTTP_URL: printer.url,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      PRINTER_HTTP_TIMEOUT: '2s',
      PRINTER_ACCEPT_TIMEOUT: '4s',
    });
    const client = await api.createClient('Routing shop');
    auth = serviceHeader(client.credentials.prod);
    devAuth = serviceHeader(client.credentials.dev);
  });
  afterAll(async () => {
    await api?.stop();
    await printer?.close();
  });

  const setRouting = async (input: Record<string, unknown>, headers = auth) => {
    const result = await graphql(api.url, headers, SET_ROUTING, { input });
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return result.data.setPrintRouting;
  };
  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
  const orderOf = async (orderId: string) =>
    (await request(api.url, 'GET', `/v2/order?orderId=${orderId}`, { headers: auth })).body;
  const routingEvents = async (orderId: string) =>
    (await request(api.url, 'GET', '/v2/events?types=order.line.routing', { headers: auth })).body.data.filter(
      (e: any) => e.data.orderId === orderId,
    );

  it('refuses routing it cannot follow, naming the field, and reads back what it keeps', async () => {
    const refused = await graphql(api.url, auth, SET_ROUTING, {
      input: { rules: [{ match: { countries: ['DE', 'XX'] }, printers: ['local'] }] },
    });
    expect(refused.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(refused.errors[0].message).toContain('rules[0].match.countries[1]');
    const unknown = await graphql(api.url, auth, SET_ROUTING, {
      input: { rules: [{ match: {}, printers: ['acme'] }] },
    });
    expect(unknown.errors[0].message).toContain('rules[0].printers[0]');
    const kept = await setRouting({
      rules: [{ match: { products: ['PB-HC-A4-P'], countries: ['de'] }, printers: ['prodigi', 'local'] }],
      defaultPrinters: ['local'],
      holdWindowSeconds: 0,
    });
    expect(kept).toEqual({
      rules: [{ match: { products: ['PB-HC-A4-P'], countries: ['DE'] }, printers: ['prodigi', 'local'] }],
      defaultPrinters: ['local'],
      holdWindowSeconds: 0,
      acceptTimeoutSeconds: null,
    });
    // Each environment is a shop of its own: the sandbox has no rules.
    const sandbox = await graphql(api.url, devAuth, '{ printRouting { rules { printers } defaultPrinters } }');
    expect(sandbox.data.printRouting).toEqual({ rules: [], defaultPrinters: [] });
  });

  it('fails over from a printer that answers 503 and then nothing to the next, and cancels its late job there', async () => {
    await setRouting({
      rules: [{ match: { products: ['PB-HC-A4-P'] }, printers: ['http', 'local'] }],
      defaultPrinters: [],
      holdWindowSeconds: 0,
    });
    printer.state.mode = 'outage';
    const projectId = await editableProject(api, auth, { userId: 'failover-customer' });
    expect((await post(api.url, '/v2/print', printBody('failover-1', projectId), auth)).status).toBe(200);

    await waitFor(
      async () => {
        const accepted = await lineOf(projectId);
        return accepted.printer === 'local' && accepted.status === 'sent printjob';
      },
      180_000,
      'the line accepted by the second printer',
    );
    const line = await lineOf(projectId);
    expect(existsSync(path.join(api.config.dataDir, 'printjobs', 'failover-1', projectId, 'job.json'))).toBe(true);
    const asked = printer.state.requests.filter((r) => r.projectId === projectId);
    expect(asked[0].answer).toBe(503);
    expect(asked.some((r) => r.answer === 'hung')).toBe(true);
    // The first printer made the job while it kept us waiting; nothing has been cancelled yet: it still does not answer.
    expect(printer.state.jobs.has(`${line.order.id}:${projectId}`)).toBe(true);
    expect(printer.state.cancels).toEqual([]);

    // It comes back: the job is offered again under its key, answered with the job it made, and cancelled there.
    printer.state.mode = 'ok';
    await waitFor(
      async () => printer.state.cancels.some((c) => c.projectId === projectId),
      60_000,
      'the late job cancelled at the first printer',
    );
    expect(printer.state.cancels).toEqual([
      {
        jobId: printer.state.jobs.get(`${line.order.id}:${projectId}`),
        jobKey: `${line.order.id}:${projectId}`,
        projectId,
      },
    ]);
    await waitFor(async () => (await routingEvents('failover-1')).length === 3, 10_000, 'three routing events');
    const events = await routingEvents('failover-1');
    expect(events.map((e: any) => [e.data.decision, e.data.printer, e.data.next ?? null])).toEqual([
      ['routed', 'http', null],
      ['failed_over', 'http', 'local'],
      ['late_acceptance_cancelled', 'http', null],
    ]);
    expect(events[0].data.printers).toEqual(['http', 'local']);
    expect(events[1].data.reason).toMatch(/did not accept the job|could not be reached|503/);

    const view = await orderOf('failover-1');
    expect(view.lines[0].routing).toMatchObject({ printers: ['http', 'local'], rule: 0, printer: 'local' });
    expect(view.lines[0].routing.decisions.map((d: any) => d.decision)).toEqual([
      'routed',
      'failed_over',
      'late_acceptance_cancelled',
    ]);
    expect(view.lines[0].status).toBe('sent printjob');
    // The line stays with the printer that took it; the first one was never given it again.
    expect((await lineOf(projectId)).printerJobId).toBe(line.printerJobId);
  }, 300_000);

  it('sends an order whose lines route to different printers as one job per printer', async () => {
    await setRouting({
      rules: [
        { match: { products: ['PB-HC-A4-P'] }, printers: ['http'] },
        { match: { products: ['PB-HC-A4-L'], countries: ['DE'] }, printers: ['local'] },
      ],
      defaultPrinters: ['http'],
    });
    printer.state.mode = 'ok';
    const portrait = await editableProject(api, auth, { userId: 'split-customer' });
    const landscape = await editableProject(api, auth, { userId: 'split-customer', sku: 'PB-HC-A4-L' });
    const quote = await post(
      api.url,
      '/v2/quote',
      {
        marketId: 0,
        countryIso2: 'DE',
        shippingLevel: 'standard',
        lines: [
          { projectId: portrait, quantity: 1 },
          { projectId: landscape, quantity: 1 },
        ],
      },
      auth,
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const body = {
      ...printBody('split-1', portrait),
      quoteId: quote.body.quoteId,
      projects: [portrait, landscape].map((id, i) => ({
        id,
        quantity: 1,
        lineItemTotal: quote.body.lines[i].lineTotal,
      })),
      payment: {
        grandTotal: quote.body.grandTotal,
        method: 'stripe',
        reference: 'pay-split-1',
        shipping: { method: 'standard', cost: quote.body.shipping },
      },
    };
    const placed = await post(api.url, '/v2/print', body, auth);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);

    await waitFor(
      async () =>
        (await lineOf(portrait)).status === 'sent printjob' && (await lineOf(landscape)).status === 'sent printjob',
      180_000,
      'both lines sent',
    );
    expect((await lineOf(portrait)).printer).toBe('http');
    expect((await lineOf(landscape)).printer).toBe('local');
    const split = printer.state.requests.filter((r) => r.projectId === portrait || r.projectId === landscape);
    expect(split.map((r) => r.projectId)).toEqual([portrait]);
    expect(existsSync(path.join(api.config.dataDir, 'printjobs', 'split-1', landscape, 'job.json'))).toBe(true);
    expect(existsSync(path.join(api.config.dataDir, 'printjobs', 'split-1', portrait))).toBe(false);
    const view = await orderOf('split-1');
    expect(view.lines.map((l: any) => [l.routing.printer, l.routing.rule])).toEqual([
      ['http', 0],
      ['local', 1],
    ]);
  }, 300_000);

  it('holds a paid order for the hold window: free to cancel until then, sent to the printer after', async () => {
    printer.state.mode = 'ok';
    await setRouting({ rules: [], defaultPrinters: ['http'], holdWindowSeconds: 600 });
    const held = await editableProject(api, auth, { userId: 'hold-customer' });
    const placedAt = Date.now();
    expect((await post(api.url, '/v2/print', printBody('hold-1', held), auth)).status).toBe(200);
    const actions = (await request(api.url, 'GET', '/v2/order/actions?orderId=hold-1', { headers: auth })).body;
    expect(actions.holdUntil).toBeGreaterThanOrEqual(placedAt + 600_000 - 1000);
    expect(actions.holdUntil).toBeLessThanOrEqual(Date.now() + 600_000);
    // Cancel and changes are free until the window ends; a claim waits for delivery.
    for (const action of actions.actions.filter((a: { action: string }) => a.action !== 'claim'))
      expect(action).toMatchObject({ available: true, until: actions.holdUntil });
    expect(actions.actions.find((a: { action: string }) => a.action === 'claim')).toMatchObject({ available: false });
    expect((await orderOf('hold-1')).holdUntil).toBe(actions.holdUntil);
    const viaGraphql = await graphql(api.url, auth, '{ orderActions(orderId: "hold-1") { action until } }');
    expect(Date.parse(viaGraphql.data.orderActions[0].until)).toBe(actions.holdUntil);

    // Rendered and waiting for the window: a cancel now never reaches the printer.
    await waitFor(async () => (await lineOf(held)).status === 'rendered', 180_000, 'held line rendered');
    const cancelled = await post(api.url, '/v2/order/cancel', { orderId: 'hold-1' }, auth);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await lineOf(held)).status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(printer.state.requests.filter((r) => r.projectId === held)).toEqual([]);
    expect(printer.state.cancels.filter((c) => c.projectId === held)).toEqual([]);

    // A window of 2 s: the job is submitted once it has passed, not before.
    await setRouting({ holdWindowSeconds: 2 });
    const shortHold = await editableProject(api, auth, { userId: 'hold-customer-2' });
    expect((await post(api.url, '/v2/print', printBody('hold-2', shortHold), auth)).status).toBe(200);
    const { holdUntil } = (await request(api.url, 'GET', '/v2/order/actions?orderId=hold-2', { headers: auth })).body;
    expect(holdUntil).toBeGreaterThan(Date.now());
    await waitFor(async () => (await lineOf(shortHold)).status === 'sent printjob', 180_000, 'held line sent');
    const sent = printer.state.requests.filter((r) => r.projectId === shortHold);
    expect(sent).toHaveLength(1);
    expect(sent[0].at).toBeGreaterThanOrEqual(holdUntil);
    const after = (await request(api.url, 'GET', '/v2/order/actions?orderId=hold-2', { headers: auth })).body;
    expect(after.holdUntil).toBeUndefined();
  }, 300_000);
});
