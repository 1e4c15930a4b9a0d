import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../src/outbound/safe-fetch';
import { HttpPrinter, webhookIdOf } from '../../src/printers/http-printer';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type PrintJob,
} from '../../src/printers/printer';
import { verifyStandardWebhook } from '../../src/printers/standard-webhooks';

const SECRET = `whsec_${Buffer.from('http-printer-test-secret-32bytes').toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.from('not-the-secret-the-psp-knows-32b').toString('base64')}`;

const JOB: PrintJob = {
  jobKey: 'order-uuid-1:project-1',
  orderId: 'shop-1001',
  projectId: 'project-1',
  psp: 'acme',
  quantity: 2,
  coverPdfKey: 'c1/prod/orders/order-uuid-1/project-1/cover.pdf',
  pdfKey: 'c1/prod/orders/order-uuid-1/project-1/interior.pdf',
  manifestKey: 'c1/prod/orders/order-uuid-1/project-1/manifest.json',
  shipping: {
    name: 'Ada Lovelace',
    line1: 'Unter den Linden 1',
    postcode: '10117',
    city: 'Berlin',
    countryIso2: 'DE',
    phone: '+49 30 1234',
  },
};

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  method: string;
  url: string;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * A PSP on 127.0.0.1: verifies each request's Standard Webhooks signature (with our verifier and
 * with the reference implementation), dedupes by Idempotency-Key, and answers as the test says.
 */
function startPsp() {
  const received: Received[] = [];
  const jobs = new Map<string, string>();
  let answer: ((request: Received) => Answer) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        method: req.method ?? '',
        url: req.url ?? '',
      };
      received.push(request);
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
          ...headers,
        });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      try {
        verifyStandardWebhook({ secret: SECRET, headers: req.headers, rawBody: request.body });
        new Webhook(SECRET).verify(request.body, req.headers as Record<string, string>);
      } catch (error) {
        reply(401, { title: 'Unauthorized', detail: `bad signature: ${(error as Error).message}` });
        return;
      }
      if (answer) {
        const { status, body, headers } = answer(request);
        reply(status, body ?? '', headers);
        return;
      }
      const key = String(req.headers['idempotency-key']);
      if (!jobs.has(key)) jobs.set(key, `acme-${jobs.size + 1}`);
      reply(201, { jobId: jobs.get(key) });
    });
  });
  return {
    received,
    jobs,
    answerWith(fn: ((request: Received) => Answer) | undefined) {
      answer = fn;
    },
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/jobs`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('HttpPrinter', () => {
  const psp = startPsp();
  const fetch = createSafeFetch({ allowLoopback: true });
  let endpoint: string;
  const printerWith = (secret = SECRET) =>
    new HttpPrinter({ endpoint, signingSecret: secret, fetch, fileUrl: (key) => `https://files.example/files/${key}` });

  beforeAll(async () => {
    endpoint = await psp.listen();
  });
  afterAll(() => psp.close());
  beforeEach(() => {
    psp.received.length = 0;
    psp.jobs.clear();
    psp.answerWith(undefined);
  });

  it('posts the signed job with links to its files and returns the PSP jobId', async () => {
    const { jobId } = await printerWith().submit(JOB);

    expect(jobId).toBe('acme-1');
    expect(psp.received).toHaveLength(1);
    const [request] = psp.received;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toBe(JOB.jobKey);
    expect(request.headers['webhook-id']).toBe(webhookIdOf(JOB.jobKey));
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(request.body)).toEqual({
      jobKey: JOB.jobKey,
      orderId: 'shop-1001',
      projectId: 'project-1',
      quantity: 2,
      files: {
        cover: 'https://files.example/files/c1/prod/orders/order-uuid-1/project-1/cover.pdf',
        interior: 'https://files.example/files/c1/prod/orders/order-uuid-1/project-1/interior.pdf',
        pdf: 'https://files.example/files/c1/prod/orders/order-uuid-1/project-1/interior.pdf',
        manifest: 'https://files.example/files/c1/prod/orders/order-uuid-1/project-1/manifest.json',
      },
      shipping: JOB.shipping,
    });
  });

  it("carries the order's shipping level when the market has one", async () => {
    await printerWith().submit({ ...JOB, shippingLevel: 'express' });
    expect(JSON.parse(psp.received[0].body)).toMatchObject({
      orderId: 'shop-1001',
      shippingLevel: 'express',
      shipping: JOB.shipping,
    });
  });

  it("calls the partner's cancel, signed, with a stable key; a 409 is the partner's refusal with its reason, a 503 means ask later", async () => {
    const ref = { jobId: 'acme/7', jobKey: JOB.jobKey, orderId: JOB.orderId, projectId: JOB.projectId };
    psp.answerWith(() => ({ status: 200, body: { cancelled: true } }));
    await printerWith().cancel(ref);
    expect(psp.received[0]).toMatchObject({ method: 'POST', url: '/v1/jobs/acme%2F7/cancel' });
    expect(psp.received[0].headers['idempotency-key']).toBe(`cancel:${JOB.jobKey}`);
    expect(JSON.parse(psp.received[0].body)).toEqual(ref);

    psp.answerWith(() => ({ status: 409, body: { detail: 'the book is on the press' } }));
    const refused = await printerWith()
      .cancel(ref)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PrinterRefusedCancel);
    expect((refused as Error).message).toContain('the book is on the press');

    psp.answerWith(() => ({ status: 503, body: 'maintenance' }));
    await expect(printerWith().cancel(ref)).rejects.toBeInstanceOf(PrinterUnavailable);
    expect(new Set(psp.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('sends a retried job with the same message id and idempotency key, so the PSP makes one job', async () => {
    const printer = printerWith();
    const first = await printer.submit(JOB);
    const again = await printerWith().submit(JOB);
    const other = await printer.submit({ ...JOB, jobKey: 'order-uuid-1:project-2', projectId: 'project-2' });

    expect(again.jobId).toBe(first.jobId);
    expect(other.jobId).not.toBe(first.jobId);
    expect(psp.jobs.size).toBe(2);
    expect(psp.received[0].headers['webhook-id']).toBe(psp.received[1].headers['webhook-id']);
    expect(psp.received[2].headers['webhook-id']).not.toBe(psp.received[0].headers['webhook-id']);
  });

  it('is refused by the PSP when signed with another secret', async () => {
    const error = await printerWith(OTHER_SECRET)
      .submit(JOB)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PrinterRejectedJob);
    expect(error).toMatchObject({
      name: 'PrinterRejectedJob',
      status: 401,
      message: expect.stringContaining('bad signature'),
    });
    expect(psp.jobs.size).toBe(0);
  });

  it('turns a 4xx into PrinterRejectedJob with the PSP explanation', async () => {
    psp.answerWith(() => ({ status: 422, body: { title: 'Unprocessable', detail: 'unknown product PB-XX' } }));

    const error = await printerWith()
      .submit(JOB)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PrinterRejectedJob);
    expect(error).toMatchObject({ name: 'PrinterRejectedJob', status: 422 });
    expect((error as Error).message).toContain('HTTP 422');
    expect((error as Error).message).toContain('unknown product PB-XX');
  });

  it.each([503, 500, 408, 429])('turns HTTP %i into a retryable PrinterUnavailable', async (status) => {
    psp.answerWith(() => ({ status, body: 'busy', headers: { 'retry-after': '120' } }));

    const error = await printerWith()
      .submit(JOB)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PrinterUnavailable);
    expect(error).toMatchObject({ name: 'PrinterUnavailable', status, retryAfterSeconds: 120 });
    expect((error as Error).message).toContain(`HTTP ${status}`);
  });

  it('treats a 2xx without a jobId as unavailable (retry), not as success', async () => {
    psp.answerWith(() => ({ status: 200, body: { ok: true } }));
    await expect(printerWith().submit(JOB)).rejects.toMatchObject({
      name: 'PrinterUnavailable',
      message: expect.stringContaining('without a JSON {"jobId": string}'),
    });

    psp.answerWith(() => ({ status: 200, body: '<html>login</html>' }));
    await expect(printerWith().submit(JOB)).rejects.toBeInstanceOf(PrinterUnavailable);
  });

  it('reports an unreachable PSP as PrinterUnavailable', async () => {
    const closed = http.createServer();
    const url = await new Promise<string>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(closed.address() as AddressInfo).port}/jobs`)),
    );
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const printer = new HttpPrinter({ endpoint: url, signingSecret: SECRET, fetch, fileUrl: (key) => key });

    const error = await printer.submit(JOB).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PrinterUnavailable);
    expect((error as Error).message).toMatch(/could not be reached.*ECONNREFUSED/);
  });

  it('refuses a malformed signing secret when built', () => {
    expect(() => new HttpPrinter({ endpoint, signingSecret: 'not a secret', fetch, fileUrl: (key) => key })).toThrow(
      /PRINTER_HTTP_SECRET.*whsec_/,
    );
  });
});
