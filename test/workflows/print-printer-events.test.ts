import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../src/db/entities';
import { signPspEvent } from '../support/psp-events';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

const SECRET = `whsec_${Buffer.from('a-32-byte-test-secret-for-psp-ok').toString('base64')}`;

describe('live orders: local printer and signed printer events', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ PSP_WEBHOOK_SECRETS: `local=${SECRET}` });
    auth = serviceHeader((await api.createClient('Live shop')).credentials.prod);
  });
  afterAll(() => api?.stop());

  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
  const sendEvent = (event: Record<string, unknown>, secret = SECRET, psp = 'local') => {
    const body = JSON.stringify(event);
    return request(api.url, 'POST', `/v2/psp/${psp}/events`, {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        ...signPspEvent({ secret, id: `evt_${Math.random().toString(36).slice(2)}`, body }),
      },
    });
  };

  it('writes the job for the printer once, then follows its signed events to complete, never backwards', async () => {
    const projectId = await editableProject(api, auth, { userId: 'live-customer' });
    expect((await post(api.url, '/v2/print', printBody('live-1', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'sent printjob', 90_000, 'sent printjob');
    const line = await lineOf(projectId);
    const jobDir = path.join(api.config.dataDir, 'printjobs', 'live-1', projectId);
    expect((await readdir(jobDir)).sort()).toEqual(['cover.pdf', 'interior.pdf', 'job.json', 'manifest.json']);
    const job = JSON.parse(await readFile(path.join(jobDir, 'job.json'), 'utf8'));
    expect(job).toMatchObject({
      jobId: line.printerJobId,
      orderId: 'live-1',
      projectId,
      quantity: 1,
      shipping: { countryIso2: 'DE', postcode: '10117' },
    });

    for (const status of ['accepted', 'printing', 'printed']) {
      expect((await sendEvent({ jobId: line.printerJobId, status })).status).toBe(202);
    }
    await waitFor(async () => (await lineOf(projectId)).status === 'printed', 10_000, 'printed');
    // A late duplicate of an earlier status changes nothing.
    await sendEvent({ jobId: line.printerJobId, status: 'printing' });
    await sendEvent({
      jobId: line.printerJobId,
      status: 'delivering',
      trackingUrl: 'https://carrier.example/track/123',
    });
    await waitFor(async () => (await lineOf(projectId)).status === 'delivering', 10_000, 'delivering');
    const delivering = await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth });
    expect(delivering.body).toMatchObject({
      status: { order: 'delivering' },
      tracking: 'https://carrier.example/track/123',
    });
    await sendEvent({ jobId: line.printerJobId, status: 'complete' });
    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 10_000, 'complete');

    const statuses = (
      await (
        await api.orm()
      ).em
        .getConnection()
        .execute(`SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = ? ORDER BY sequence`, [
          `live-1/${projectId}`,
        ])
    ).map((r) => String(r.status));
    expect(statuses).toEqual([
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
  });

  it('refuses unsigned, wrongly signed and malformed events', async () => {
    const unsigned = await request(api.url, 'POST', '/v2/psp/local/events', {
      body: { jobId: 'x', status: 'printing' },
    });
    expect(unsigned.status).toBe(401);
    const wrongSecret = await sendEvent(
      { jobId: 'x', status: 'printing' },
      `whsec_${Buffer.from('another-secret-of-thirty-two-byte').toString('base64')}`,
    );
    expect(wrongSecret.status).toBe(401);
    const unknownPsp = await sendEvent({ jobId: 'x', status: 'printing' }, SECRET, 'nowhere');
    expect(unknownPsp.status).toBe(401);
    const ourStatus = await sendEvent({ jobId: 'x', status: 'paid' });
    expect(ourStatus.status).toBe(400);
    const unknownJob = await sendEvent({ jobId: 'no-such-job', status: 'printing' });
    expect(unknownJob.status).toBe(404);
  });

  it('lets the eCommerce side cancel before printing and refund after, over GraphQL', async () => {
    const projectId = await editableProject(api, auth, { userId: 'refunder' });
    expect((await post(api.url, '/v2/print', printBody('live-2', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'sent printjob', 90_000, 'sent printjob');
    const line = await lineOf(projectId);
    await sendEvent({ jobId: line.printerJobId, status: 'printing' });
    await waitFor(async () => (await lineOf(projectId)).status === 'printing', 10_000, 'printing');
    const mutate = (status: string) =>
      post(
        api.url,
        '/graphql',
        {
          query: `mutation($s: EcommerceOrderStatus!) { setOrderStatus(orderId: "live-2", status: $s) { lines { status } } }`,
          variables: { s: status },
        },
        auth,
      );
    const cancel = await mutate('cancelled');
    expect(cancel.body.errors[0].extensions.code).toBe('ACTION_NOT_AVAILABLE');
    const refund = await mutate('refunded');
    expect(refund.body.data.setOrderStatus.lines[0].status).toBe('refunded');
    // The flow ends: a later printer event no longer moves the line.
    await sendEvent({ jobId: line.printerJobId, status: 'printed' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await lineOf(projectId)).status).toBe('refunded');
  });

  it('resubmits nothing when the job was already written', async () => {
    const projectId = await editableProject(api, auth, { userId: 'once' });
    expect((await post(api.url, '/v2/print', printBody('live-3', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'sent printjob', 90_000, 'sent printjob');
    const jobFile = path.join(api.config.dataDir, 'printjobs', 'live-3', projectId, 'job.json');
    expect(existsSync(jobFile)).toBe(true);
    const before = (await stat(jobFile)).mtimeMs;
    const { LocalPrinter } = await import('../../src/printers/local-printer');
    const line = await lineOf(projectId);
    const again = await new LocalPrinter({ dataDir: api.config.dataDir, files: api.service.files }).submit({
      jobKey: `${line.order.id}:${projectId}`,
      orderId: 'live-3',
      projectId,
      psp: 'local',
      quantity: 1,
      coverPdfKey: line.coverPdfKey!,
      pdfKey: line.pdfKey!,
      manifestKey: line.manifestKey!,
      shipping: { name: 'x', line1: 'x', postcode: 'x', countryIso2: 'DE' },
    });
    expect(again.jobId).toBe(line.printerJobId);
    expect((await stat(jobFile)).mtimeMs).toBe(before);
  });
});
