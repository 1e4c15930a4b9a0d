import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { freePort } from '../support/private-postgres';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { startPrinterStub, type PrinterStub } from '../support/printer-stub';
import { signPspEvent } from '../support/psp-events';
import { waitFor } from '../support/wait';

const EVENT_SECRET = `whsec_${Buffer.from('reissued-ids-psp-event-secret-01').toString('base64')}`;
const JOB_SECRET = `whsec_${Buffer.from('reissued-ids-printer-job-secret1').toString('base64')}`;

/**
 * A live printer over real HTTP that restarts and numbers its jobs from 1 again: the second order's
 * job gets the id the first order's job had. Its events must move the second order only; the first,
 * still out for delivery, keeps its status. Before, the events were matched by job id alone and the
 * older order took them (it was completed by the other order's `complete`, and the newer one never
 * left `sent printjob`). The printer reports the second job before its answer arrives: while the job is
 * being sent, its events (naming an id an older line still holds) are retried, not lost on that line.
 */
describe.each([
  { echo: [] as ('jobKey' | 'orderId')[], how: 'naming only the job id (the latest job sent under it)' },
  { echo: ['jobKey'] as ('jobKey' | 'orderId')[], how: 'echoing the job key they were sent with' },
])('printer events after the printer reissued a job id, $how', ({ echo }) => {
  let api: TestService;
  let printer: PrinterStub;
  let auth: Record<string, string>;
  let restarted = false;

  beforeAll(async () => {
    const port = await freePort();
    // The first job stops at `delivering` (the parcel is on its way when the printer restarts).
    const walk = ['accepted', 'printing', 'printed', 'delivering', 'complete'];
    printer = await startPrinterStub({
      serviceUrl: () => `http://127.0.0.1:${port}`,
      eventSecret: EVENT_SECRET,
      echo,
      // The second order's job answers late: the printer reports it before the service has its id.
      delayOf: (nth) => (nth === 2 ? 3000 : 0),
      walkOf: () => (restarted ? walk : walk.slice(0, -1)),
    });
    api = await startTestService({
      PORT: String(port),
      ALLOW_LOOPBACK_URLS: 'true',
      PRINTER: 'http',
      PRINTER_HTTP_URL: printer.url,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      PSP_WEBHOOK_SECRETS: `local=${EVENT_SECRET}`,
    });
    auth = serviceHeader((await api.createClient('Reissued ids shop')).credentials.prod);
  });
  afterAll(async () => {
    await api?.stop();
    await printer?.close();
  });

  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
  const statusesOf = async (orderId: string, projectId: string) =>
    (
      await (
        await api.orm()
      ).em
        .getConnection()
        .execute(`SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = ? ORDER BY sequence`, [
          `${orderId}/${projectId}`,
        ])
    ).map((r) => String(r.status));
  const sendEvent = (event: Record<string, unknown>) => {
    const body = JSON.stringify(event);
    return request(api.url, 'POST', '/v2/psp/local/events', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        ...signPspEvent({ secret: EVENT_SECRET, id: `evt_${Math.random().toString(36).slice(2)}`, body }),
      },
    });
  };

  it('moves the order the job was sent for, never the older order that once had the id', async () => {
    const first = await editableProject(api, auth, { userId: 'first-customer' });
    expect((await post(api.url, '/v2/print', printBody('reissue-1', first), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(first)).status === 'delivering', 120_000, 'first order delivering');
    const firstLine = await lineOf(first);

    printer.restart();
    restarted = true;
    const second = await editableProject(api, auth, { userId: 'second-customer' });
    expect((await post(api.url, '/v2/print', printBody('reissue-2', second), auth)).status).toBe(200);
    // While the second job is being sent, the first job's own repeat of its status is taken (not refused as behind).
    await waitFor(async () => (await lineOf(second)).status === 'sending printjob', 120_000, 'second job sending');
    expect((await sendEvent({ jobId: firstLine.printerJobId, status: 'delivering' })).status).toBe(202);
    await waitFor(async () => (await lineOf(second)).status === 'complete', 120_000, 'second order complete');
    const secondLine = await lineOf(second);
    expect(secondLine.printerJobId).toBe(firstLine.printerJobId);

    expect((await lineOf(first)).status).toBe('delivering');
    expect(await statusesOf('reissue-1', first)).toEqual([
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
    ]);
    expect(await statusesOf('reissue-2', second)).toEqual([
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

    if (echo.includes('jobKey')) {
      // The first order's own late event, named by its key, still reaches it.
      const firstKey = `${firstLine.order.id}:${first}`;
      expect((await sendEvent({ jobId: firstLine.printerJobId, jobKey: firstKey, status: 'complete' })).body).toEqual({
        accepted: true,
        status: 'complete',
      });
      await waitFor(async () => (await lineOf(first)).status === 'complete', 10_000, 'first order complete');
      // An event for the older, finished job changes nothing; a key this printer never had under the id is unknown.
      expect((await sendEvent({ jobId: firstLine.printerJobId, jobKey: firstKey, status: 'delivering' })).body).toEqual(
        { accepted: true, status: 'complete' },
      );
      const unknown = await sendEvent({
        jobId: firstLine.printerJobId,
        jobKey: 'not-a-job-we-sent',
        status: 'printing',
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors[0].path).toBe('jobKey');
    } else {
      // Without a key the id means the latest job: a late event for the first order goes to the second (finished) one and changes nothing.
      expect((await sendEvent({ jobId: firstLine.printerJobId, status: 'complete' })).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await lineOf(first)).status).toBe('delivering');
    }
  }, 300_000);
});
