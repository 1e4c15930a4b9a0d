import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

describe('an interrupted fulfilment resumes at the next start', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    const last = services.pop();
    await last?.stop();
  });

  it('completes after the embedded engine is killed mid-render, with one print job and no repeated status', async () => {
    const env = { SANDBOX_PRINTER_STEP: '200ms' };
    const first = await startTestService(env);
    services.push(first);
    const client = await first.createClient('Resume shop');
    const auth = serviceHeader(client.credentials.dev);
    const projectId = await editableProject(first, auth, { userId: 'resume' });
    expect((await post(first.url, '/v2/print', printBody('resume-1', projectId), auth)).status).toBe(200);

    // Kill it once some pages are on disk (below the order line's folder) but the book is not finished.
    const lineOf = async (api: TestService) =>
      (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
    const line = await lineOf(first);
    const pagesDir = path.join(
      first.config.dataDir,
      'files',
      client.clientId,
      'dev',
      'orders',
      line.order.id,
      line.id,
      'pages',
    );
    await waitFor(async () => (await readdir(pagesDir).catch(() => [])).length >= 2, 60_000, 'first pages rendered');
    await first.stop({ keepData: true });
    const renderedBeforeCrash = (await readdir(pagesDir)).length;
    expect(renderedBeforeCrash).toBeLessThan(25);

    const second = await startTestService(env, first);
    services.push(second);
    await waitFor(async () => (await lineOf(second)).status === 'complete', 120_000, 'complete after restart');
    expect((await readdir(pagesDir)).length).toBe(25);

    const statuses = (
      await (
        await second.orm()
      ).em
        .getConnection()
        .execute(`SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = ? ORDER BY sequence`, [
          `resume-1/${projectId}`,
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
    // One submission to the printer: the run's history (DBOS's workflow steps) has submitPrintJob once.
    const finished = await lineOf(second);
    const steps = await DBOS.listWorkflowSteps(`fulfilment:${finished.id}`);
    expect(steps?.filter((step) => step.name === 'submitPrintJob')).toHaveLength(1);
    expect(finished.printerJobId).toBeTruthy();
  });
});
