import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../src/outbound/safe-fetch';
import { LuluPrinter } from '../../src/printers/lulu-printer';
import { PartnerApi, PartnerCallbackMalformed, PartnerCallbackRefused } from '../../src/printers/partner-api';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type PrintJob,
} from '../../src/printers/printer';
import { startPartnerServer, type PartnerReply, type PartnerRequest } from '../support/partner-server';

/**
 * Contract of the Lulu adapter against a local Lulu answering as the Lulu Print API reference
 * says (https://api.lulu.com/docs/, its OpenAPI at https://api.sandbox.lulu.com): the client
 * credentials token of `/auth/realms/glasstree/protocol/openid-connect/token`, `POST /print-jobs/`
 * with `line_items[].printable_normalization` (cover and interior `source_url`, `pod_package_id`),
 * `GET /print-jobs/` (paged `results`), `PUT /print-jobs/{id}/status/` to cancel, and the
 * `PRINT_JOB_STATUS_CHANGED` webhook signed `Lulu-HMAC-SHA256` (hex HMAC-SHA256 of the body under
 * the API secret).
 */

const CLIENT_KEY = 'lulu-client-key';
const CLIENT_SECRET = 'lulu-client-secret-0123456789';
const SHIPPING_LEVELS = ['MAIL', 'PRIORITY_MAIL', 'GROUND_HD', 'GROUND_BUS', 'GROUND', 'EXPEDITED', 'EXPRESS'];

const JOB: PrintJob = {
  jobKey: '7f3e2c74-4b9c-4c79-9fa0-3b2a0e3d4c33:2d0e4f65-99cc-4e3a-9c57-5b8c3f6a7d44',
  orderId: 'shop-3003',
  projectId: '2d0e4f65-99cc-4e3a-9c57-5b8c3f6a7d44',
  psp: 'lulu',
  quantity: 3,
  sku: 'hardcover-letter',
  pageCount: 32,
  partnerProducts: { lulu: '0850X1100.FC.STD.CW.080CW444.MXX' },
  coverPdfKey: 'c3/prod/orders/o3/p3/cover.pdf',
  pdfKey: 'c3/prod/orders/o3/p3/interior.pdf',
  manifestKey: 'c3/prod/orders/o3/p3/manifest.json',
  shippingLevel: 'express',
  shipping: {
    name: 'Hans Dampf',
    line1: 'Bayerstraße 1',
    postcode: '80335',
    city: 'München',
    countryIso2: 'DE',
    phone: '844-212-0689',
  },
  contactEmail: 'hans@example.com',
};

type Job = Record<string, any> & { id: number; external_id: string; status: { name: string; messages?: unknown } };

function fakeLulu() {
  const jobs = new Map<string, Job>();
  let tokens = 0;
  const issued = new Set<string>();
  const server = startPartnerServer((request: PartnerRequest): PartnerReply => {
    if (request.path === '/auth/realms/glasstree/protocol/openid-connect/token') {
      const basic = `Basic ${Buffer.from(`${CLIENT_KEY}:${CLIENT_SECRET}`).toString('base64')}`;
      if (request.headers.authorization !== basic || request.body !== 'grant_type=client_credentials')
        return { status: 401, body: { error: 'unauthorized_client' } };
      const token = `eyJ-token-${++tokens}`;
      issued.add(token);
      return { status: 200, body: { access_token: token, expires_in: 3600, token_type: 'bearer' } };
    }
    if (!issued.has(String(request.headers.authorization).replace(/^Bearer /, '')))
      return { status: 401, body: { detail: 'Authentication credentials were not provided.' } };
    const body = request.json as Record<string, any>;
    if (request.method === 'POST' && request.path === '/print-jobs/') {
      const problems: Record<string, string[]> = {};
      if (!body?.contact_email) problems.contact_email = ['This field is required.'];
      if (!SHIPPING_LEVELS.includes(body?.shipping_level)) problems.shipping_level = ['"x" is not a valid choice.'];
      for (const f of ['name', 'street1', 'city', 'postcode', 'country_code'])
        if (!body?.shipping_address?.[f]) problems[`shipping_address.${f}`] = ['This field is required.'];
      for (const item of body?.line_items ?? []) {
        const p = item.printable_normalization ?? {};
        if (!p.pod_package_id || !p.cover?.source_url || !p.interior?.source_url)
          problems.line_items = ['printable_normalization needs pod_package_id, cover and interior'];
      }
      if (Object.keys(problems).length > 0) return { status: 400, body: problems };
      const id = 4000 + jobs.size + 1;
      const job: Job = {
        id,
        external_id: body.external_id,
        status: { name: 'CREATED', messages: {} },
        line_items: body.line_items.map((item: Record<string, unknown>, i: number) => ({
          id: id * 10 + i,
          ...item,
          status: { name: 'CREATED', messages: {} },
        })),
        shipping_level: body.shipping_level,
      };
      jobs.set(String(id), job);
      return { status: 201, body: job };
    }
    if (request.method === 'GET' && request.path.startsWith('/print-jobs/?')) {
      const search = new URL(request.path, 'http://x').searchParams.get('search') ?? '';
      const results = [...jobs.values()].filter((j) => j.external_id.includes(search));
      return { status: 200, body: { count: results.length, next: null, previous: null, results } };
    }
    const status = /^\/print-jobs\/(\d+)\/status\/$/.exec(request.path);
    if (request.method === 'PUT' && status) {
      const job = jobs.get(status[1]);
      if (!job) return { status: 404, body: { detail: 'Not found.' } };
      if (!['CREATED', 'UNPAID', 'PRODUCTION_DELAYED'].includes(job.status.name))
        return { status: 400, body: { detail: `print job in status ${job.status.name} cannot be canceled` } };
      job.status = { name: body?.name };
      return { status: 200, body: job.status };
    }
    return { status: 404, body: { detail: 'Not found.' } };
  });
  return {
    ...server,
    jobs,
    tokensIssued: () => tokens,
    reset() {
      server.received.length = 0;
      jobs.clear();
    },
  };
}

function signed(payload: unknown, secret = CLIENT_SECRET) {
  const rawBody = Buffer.from(JSON.stringify(payload));
  return { rawBody, headers: { 'lulu-hmac-sha256': createHmac('sha256', secret).update(rawBody).digest('hex') } };
}

describe('LuluPrinter against the Lulu Print API reference', () => {
  const lulu = fakeLulu();
  const fetch = createSafeFetch({ allowLoopback: true });
  let baseUrl: string;
  const printer = (secret = CLIENT_SECRET) =>
    new LuluPrinter({
      api: new PartnerApi({ partner: 'lulu', baseUrl, fetch }),
      clientKey: CLIENT_KEY,
      clientSecret: secret,
      fileUrl: (key) => `https://files.example/files/${key}?sig=2`,
    });

  beforeAll(async () => {
    baseUrl = await lulu.listen();
  });
  afterAll(() => lulu.close());
  beforeEach(() => lulu.reset());

  it('takes a token, then submits a two-file book with the mapped pod_package_id and shipping level', async () => {
    const one = printer();
    const { jobId } = await one.submit(JOB);

    expect(lulu.jobs.get(jobId)).toBeDefined();
    const create = lulu.received.find((r) => r.method === 'POST' && r.path === '/print-jobs/')!;
    expect(create.headers.authorization).toMatch(/^Bearer eyJ-token-\d+$/);
    expect(create.json).toMatchObject({
      external_id: JOB.jobKey,
      contact_email: 'hans@example.com',
      shipping_level: 'EXPRESS',
      shipping_address: {
        name: 'Hans Dampf',
        street1: 'Bayerstraße 1',
        city: 'München',
        postcode: '80335',
        country_code: 'DE',
        phone_number: '844-212-0689',
      },
      line_items: [
        {
          external_id: JOB.jobKey,
          quantity: 3,
          printable_normalization: {
            pod_package_id: '0850X1100.FC.STD.CW.080CW444.MXX',
            cover: { source_url: 'https://files.example/files/c3/prod/orders/o3/p3/cover.pdf?sig=2' },
            interior: { source_url: 'https://files.example/files/c3/prod/orders/o3/p3/interior.pdf?sig=2' },
          },
        },
      ],
    });

    // The token is kept: a second call of the same printer asks for none.
    const before = lulu.tokensIssued();
    await one.submit(JOB);
    expect(lulu.tokensIssued()).toBe(before);
    expect(lulu.jobs.size).toBe(1);
  });

  it("turns Lulu's errors into printer errors: 400 rejects, a refused client and 5xx are retried", async () => {
    const rejected = await printer()
      .submit({ ...JOB, shipping: { ...JOB.shipping, city: undefined } })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(PrinterRejectedJob);
    expect((rejected as Error).message).toContain('shipping_address.city');

    expect(
      await printer('not-the-secret')
        .submit(JOB)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(PrinterUnavailable);
    lulu.failNext({ status: 502, body: { detail: 'Bad gateway' } });
    expect(
      await printer()
        .submit(JOB)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(PrinterUnavailable);
    expect(lulu.jobs.size).toBe(0);
  });

  it('refuses a job without a mapping or a contact e-mail before anything is sent', async () => {
    await expect(printer().submit({ ...JOB, partnerProducts: {} })).rejects.toThrow(/partnerProducts\.lulu/);
    await expect(printer().submit({ ...JOB, contactEmail: undefined })).rejects.toBeInstanceOf(PrinterRejectedJob);
    expect(lulu.received).toHaveLength(0);
  });

  it('cancels before production and is refused in production', async () => {
    const { jobId } = await printer().submit(JOB);
    const ref = { jobId, jobKey: JOB.jobKey, orderId: JOB.orderId, projectId: JOB.projectId };
    await printer().cancel(ref);
    expect(lulu.jobs.get(jobId)!.status.name).toBe('CANCELED');

    const other = `${JOB.jobKey}-b`;
    const { jobId: running } = await printer().submit({ ...JOB, jobKey: other });
    lulu.jobs.get(running)!.status = { name: 'IN_PRODUCTION' };
    await expect(printer().cancel({ ...ref, jobId: running })).rejects.toBeInstanceOf(PrinterRefusedCancel);
  });

  it('reads signed status and tracking webhooks, and refuses unsigned or mis-signed ones', async () => {
    const { jobId } = await printer().submit(JOB);
    const job = lulu.jobs.get(jobId)!;

    job.status = { name: 'IN_PRODUCTION' };
    expect(await printer().receiveCallback(signed({ topic: 'PRINT_JOB_STATUS_CHANGED', data: job }))).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'printing',
      parcels: [],
    });

    job.status = { name: 'SHIPPED', messages: {} };
    job.line_items[0].status = {
      name: 'SHIPPED',
      messages: {
        tracking_id: '1Z999AA10123456784',
        tracking_urls: ['https://www.ups.com/track?tracknum=1Z999AA10123456784'],
        carrier_name: 'UPS',
      },
    };
    const shipped = signed({ topic: 'PRINT_JOB_STATUS_CHANGED', data: job });
    expect(await printer().receiveCallback(shipped)).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'delivering',
      parcels: [
        {
          carrier: 'UPS',
          trackingNumber: '1Z999AA10123456784',
          trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        },
      ],
    });

    await expect(printer().receiveCallback({ headers: {}, rawBody: shipped.rawBody })).rejects.toBeInstanceOf(
      PartnerCallbackRefused,
    );
    await expect(
      printer().receiveCallback(signed({ topic: 'PRINT_JOB_STATUS_CHANGED', data: job }, 'another-secret')),
    ).rejects.toBeInstanceOf(PartnerCallbackRefused);
    const tampered = { ...shipped, rawBody: Buffer.from(shipped.rawBody.toString().replace('SHIPPED', 'DELIVERED')) };
    await expect(printer().receiveCallback(tampered)).rejects.toBeInstanceOf(PartnerCallbackRefused);
    await expect(printer().receiveCallback(signed({ topic: 'OTHER', data: {} }))).rejects.toBeInstanceOf(
      PartnerCallbackMalformed,
    );
  });
});
