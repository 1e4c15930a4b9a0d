import { createClient, type Client } from 'graphql-ws';
import { PDFDocument, PDFName, type PDFRawStream, PDFDict } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { OrderLine } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';
import type { IssuedClient } from '../../src/services/clients/client-admin';

const SANDBOX_WALK = [
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
const ORDER_EVENTS = `subscription { orderStatusChanged { orderId projectId status tracking sequence } }`;

/** A4 portrait with 3 mm bleed at 300 DPI. */
const PAGE_PT = { width: ((210 + 6) / 25.4) * 72, height: ((297 + 6) / 25.4) * 72 };
const PAGE_PX = { width: Math.round(((210 + 6) / 25.4) * 300), height: Math.round(((297 + 6) / 25.4) * 300) };

describe('print: a paid order rendered, printed by the sandbox printer and tracked to complete', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;
  let photos: PhotoServer;
  let ws: Client;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms', TZ: 'Europe/Berlin' });
    client = await api.createClient('Print shop');
    auth = serviceHeader(client.credentials.dev);
    photos = await startPhotoServer({
      '/blue-cast.jpg': {
        body: await makePhoto({ width: 2480, height: 3508, blueCast: true, takenAt: '2024:08:01 10:00:00' }),
      },
      '/beach.jpg': { body: await makePhoto({ width: 3508, height: 2480, takenAt: '2024:08:02 10:00:00' }) },
      // About 50 DPI on a full A4 page (40 as the cover): far below print resolution, yet above the preflight's blocking floor (30).
      '/tiny.jpg': { body: await makePhoto({ width: 800, height: 534, takenAt: '2024:08:03 10:00:00' }) },
    });
    ws = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: {
        accessKey: client.credentials.dev.accessKey,
        accessSecret: client.credentials.dev.accessSecret,
      },
    });
  });
  afterAll(async () => {
    await ws?.dispose();
    await photos?.close();
    await api?.stop();
  });

  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });

  // The test's own waits allow 90 s for the order to complete; on a loaded machine it needs them.
  it('goes from /v2/print to complete with a print-ready PDF, every status streamed in order', {
    timeout: 120_000,
  }, async () => {
    const projectId = await editableProject(api, auth, {
      email: 'ada@example.com',
      photos: ['/blue-cast.jpg', '/beach.jpg', '/tiny.jpg'].map((p) => photos.url(p)),
      custom: { title: 'August' },
    });
    const events: any[] = [];
    const stop = ws.subscribe(
      { query: ORDER_EVENTS },
      {
        next: (r) => r.data && events.push(r.data.orderStatusChanged),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // graphql-ws sends no subscribe acknowledgement

    const printed = await post(api.url, '/v2/print', printBody('order-1001', projectId), auth);
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    expect(printed.body.message).toContain(projectId);

    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 90_000, 'complete');
    await waitFor(
      async () => events.filter((e) => e.orderId === 'order-1001').length >= SANDBOX_WALK.length,
      5_000,
      'all events',
    );
    stop();
    const mine = events.filter((e) => e.orderId === 'order-1001');
    expect(mine.map((e) => e.status)).toEqual(SANDBOX_WALK);
    expect(mine.map((e) => e.sequence)).toEqual(SANDBOX_WALK.map((_, i) => i + 1));
    expect(mine.find((e) => e.status === 'delivering').tracking).toMatch(/^https:\/\/.+/);

    // Two print files: interior.pdf (24 A4 pages + bleed, 300 DPI images) and cover.pdf (one sheet: back, spine, front, wrap, bleed).
    const line = await lineOf(projectId);
    expect(line.pageCount).toBe(24);
    expect(line.pdfKey).toMatch(/\/interior\.pdf$/);
    const pdf = await PDFDocument.load(await api.service.files.get(line.pdfKey!));
    expect(pdf.getPageCount()).toBe(24);
    for (const page of pdf.getPages()) {
      const box = page.getMediaBox();
      expect(box.width).toBeCloseTo(PAGE_PT.width, 1);
      expect(box.height).toBeCloseTo(PAGE_PT.height, 1);
    }
    const xObjects = pdf.getPage(1).node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    const image = pdf.context.lookup(xObjects.get(xObjects.keys()[0])) as PDFRawStream;
    expect(image.dict.get(PDFName.of('Width'))!.toString()).toBe(String(PAGE_PX.width));
    expect(image.dict.get(PDFName.of('Height'))!.toString()).toBe(String(PAGE_PX.height));
    const manifest = JSON.parse((await api.service.files.get(line.manifestKey!)).toString('utf8'));
    const cover = await PDFDocument.load(await api.service.files.get(line.coverPdfKey!));
    expect(cover.getPageCount()).toBe(1);
    // PB-HC-A4-P, 24 pages: spine 12 x 0.15 + 2 x 2.5 = 6.8 mm; sheet 2 x (3 + 15 + 210 + 8) + 6.8 = 478.8 mm wide.
    expect(cover.getPage(0).getMediaBox().width).toBeCloseTo((478.8 / 25.4) * 72, 1);
    expect(manifest).toMatchObject({
      binding: 'hardcover',
      interior: { file: 'interior.pdf', pageCount: 24 },
      cover: { file: 'cover.pdf', pageCount: 1, geometry: { spineWidthMm: 6.8, widthMm: 478.8 } },
    });

    // The 800x534 photo is far below print resolution: warned, not refused.
    expect(line.warnings.some((w) => w.effectiveDpi < 150)).toBe(true);

    // The project shows it was ordered, to whom it ships and how far it got.
    const status = await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth });
    expect(status.body).toMatchObject({
      status: { project: 'ordering', order: 'complete' },
      user: {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        shippingAddress: {
          line1: 'Unter den Linden 1',
          postal: '10117',
          country: 'Germany',
          isoCode2: 'DE',
          isoCode3: 'DEU',
        },
      },
    });
    expect(status.body.tracking).toBeUndefined(); // only while delivering
  });

  it('is idempotent on orderId, and a different payload under it is a 409', async () => {
    const projectId = await editableProject(api, auth, { userId: 'idem' });
    const body = printBody('order-2002', projectId);
    const first = await post(api.url, '/v2/print', body, auth);
    const again = await post(api.url, '/v2/print', { ...body, user: { ...body.user } }, auth);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const orm = await api.orm();
    expect(await orm.em.fork().count(OrderLine, { project: projectId })).toBe(1);
    const changed = await post(api.url, '/v2/print', printBody('order-2002', projectId, { quantity: 3 }), auth);
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  // One shop's two orders render one after the other (a tenant's share of the render queue is one).
  it('colour-corrects a tinted photo when asked: the channel means move together', { timeout: 120_000 }, async () => {
    const tinted = await editableProject(api, auth, { userId: 'colour', photos: [photos.url('/blue-cast.jpg')] });
    const plain = await editableProject(api, auth, { userId: 'colour', photos: [photos.url('/blue-cast.jpg')] });
    expect(
      (await post(api.url, '/v2/print', printBody('order-3003', tinted, { colorCorrection: true }), auth)).status,
    ).toBe(200);
    expect(
      (await post(api.url, '/v2/print', printBody('order-3004', plain, { colorCorrection: false }), auth)).status,
    ).toBe(200);
    await waitFor(async () => (await lineOf(tinted)).pdfKey && (await lineOf(plain)).pdfKey, 90_000, 'both rendered');
    const spread = async (projectId: string) => {
      const line = await lineOf(projectId);
      const key = line.pdfKey!.replace(/interior\.pdf$/, 'pages/0001.jpg');
      const { channels } = await sharp(await api.service.files.get(key))
        .extract({ left: 400, top: 400, width: 1600, height: 2400 })
        .stats();
      const means = channels.slice(0, 3).map((c) => c.mean);
      return Math.max(...means) - Math.min(...means);
    };
    const corrected = await spread(tinted);
    const uncorrected = await spread(plain);
    expect(uncorrected).toBeGreaterThan(40);
    expect(corrected).toBeLessThan(uncorrected * 0.5);
  });

  it("replaces the project's photos with the order's and rebuilds the book before printing", async () => {
    const projectId = await editableProject(api, auth, { userId: 'replacer', photos: [photos.url('/beach.jpg')] });
    const body = printBody('order-5005', projectId) as any;
    body.projects[0].photos = [photos.url('/blue-cast.jpg'), photos.url('/tiny.jpg')];
    expect((await post(api.url, '/v2/print', body, auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 90_000, 'complete');
    const { data } = (await (
      await fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({
          query: `{ project(id: "${projectId}") { status { project } photos { url status } pages { photos { photoId } } } }`,
        }),
      })
    ).json()) as { data: any };
    expect(data.project.photos.map((p: any) => p.url)).toEqual([photos.url('/blue-cast.jpg'), photos.url('/tiny.jpg')]);
    expect(data.project.pages.flatMap((p: any) => p.photos)).toHaveLength(2);
    expect(data.project.status.project).toBe('ordering');
  });

  it('lists the order in the order history, 10 a page, with the documented fields', async () => {
    const { status, body } = await post(api.url, '/api/v2/user/get-order-history.php', {
      env: 'dev',
      key: client.credentials.dev.apiKey,
      email: 'ADA@example.com',
    });
    expect(status).toBe(200);
    expect(body.cursor).toBeUndefined();
    const entry = body.results.find((r: any) => r.orderId === 'order-1001');
    expect(entry).toMatchObject({
      email: 'ada@example.com',
      sourceOrderId: 'pay-order-1001',
      orderStatus: 'Payment Complete',
      shippingCost: 5,
      voucher: 'SUMMER',
      voucherAmount: 2,
      subTotal: 34.99,
      grandTotal: 37.99,
      shippingAddress: {
        firstname: 'Ada',
        lastname: 'Lovelace',
        address_1: 'Unter den Linden 1',
        city: 'Berlin',
        postcode: '10117',
        state: 'Berlin',
        country: 'Germany',
      },
    });
    expect(entry.displayDate).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(entry.timestamp - Date.now() / 1000)).toBeLessThan(600);
    // displayDate is server time (Europe/Berlin here), timestamp is UTC seconds.
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(entry.timestamp * 1000));
    expect(entry.displayDate.slice(-5)).toBe(berlin);
    expect(entry.orders[0]).toMatchObject({
      title: 'August',
      quantity: 1,
      total: 34.99,
      displayStatus: expect.any(String),
      product: { basePrice: expect.any(Number), extraCostPerPage: expect.any(Number) },
    });
    expect(new URL(entry.orders[0].coverPreview).pathname).toMatch(/preview\.jpg$/);
  });

  describe('bad orders change nothing', () => {
    const ordersCount = async () =>
      Number((await (await api.orm()).em.getConnection().execute('SELECT count(*) AS n FROM orders'))[0].n);

    it.each([
      ['missing line1', (b: any) => delete b.user.address.line1, 400, 'user.address.line1'],
      ['missing postcode', (b: any) => delete b.user.address.postcode, 400, 'user.address.postcode'],
      ['missing countryIso2', (b: any) => delete b.user.address.countryIso2, 400, 'user.address.countryIso2'],
      ['unknown country', (b: any) => (b.user.address.countryIso2 = 'XX'), 400, 'user.address.countryIso2'],
      ['quantity 0', (b: any) => (b.projects[0].quantity = 0), 400, 'projects[0].quantity'],
      ['id without p-', (b: any) => (b.projects[0].id = 'x-1'), 400, 'projects[0].id'],
      ['unknown project', (b: any) => (b.projects[0].id = 'p-unknown000000000000000'), 404, 'projects[0].id'],
      ['wrong total', (b: any) => (b.payment.grandTotal = 50), 422, 'payment.grandTotal'],
      ['unknown sku change', (b: any) => (b.projects[0].product = { sku: 'NOPE' }), 422, 'projects[0].product.sku'],
    ])('%s', async (_name, mutate, code, path) => {
      const projectId = await editableProject(api, auth, { userId: 'bad-orders' });
      const body = printBody(`bad-${Math.random()}`, projectId);
      mutate(body);
      const before = await ordersCount();
      const response = await post(api.url, '/v2/print', body, auth);
      expect(response.status, JSON.stringify(response.body)).toBe(code);
      expect(response.body.errors.map((e: any) => e.path)).toContain(path);
      expect(await ordersCount()).toBe(before);
    });

    it('names the amounts when totals do not add up', async () => {
      const projectId = await editableProject(api, auth, { userId: 'bad-orders' });
      const body = printBody('bad-total', projectId);
      body.payment.grandTotal = 40;
      const { body: problem } = await post(api.url, '/v2/print', body, auth);
      expect(problem.code).toBe('TOTALS_MISMATCH');
      expect(problem.detail).toContain('40.00');
      expect(problem.detail).toContain('37.99');
    });

    it("refuses another client's project as not found", async () => {
      const other = serviceHeader((await api.createClient('Other')).credentials.dev);
      const projectId = await editableProject(api, auth, { userId: 'mine' });
      const response = await post(api.url, '/v2/print', printBody('foreign-1', projectId), other);
      expect(response.status).toBe(404);
    });
  });
});
