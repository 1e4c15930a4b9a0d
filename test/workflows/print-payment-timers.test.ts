import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfirmPaymentDocument, PrintOrderDocument } from '../support/generated/graphql';
import { startTestService, type TestService } from '../support/harness';
import { serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';
import { graphql as graphqlAt } from '../support/graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

describe('orders placed before payment run on durable timers', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ ORDER_STATUS_TIMEOUT: '400ms', SANDBOX_PRINTER_STEP: '50ms' });
    auth = serviceHeader((await api.createClient('Pending shop')).credentials.dev);
  });
  afterAll(() => api?.stop());

  const graphql = (query: TypedDocumentNode<any, any>, variables: Record<string, unknown>): Promise<any> =>
    graphqlAt(api.url, auth, query, variables);
  const statuses = async (orderId: string, projectId: string) =>
    (
      await (
        await api.orm()
      ).em
        .getConnection()
        .execute(`SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = ? ORDER BY sequence`, [
          `${orderId}/${projectId}`,
        ])
    ).map((r) => String(r.status));

  it('walks waiting -> expiring -> last call -> abandoned when the payment never comes', async () => {
    const projectId = await editableProject(api, auth, { userId: 'never-pays' });
    const placed = await graphql(PrintOrderDocument, {
      input: { ...printBody('pending-1', projectId), paymentPending: true },
    });
    expect(placed.data.printOrder.order.lines[0].status).toBe('waiting');
    await waitFor(async () => (await statuses('pending-1', projectId)).includes('abandoned'), 20_000, 'abandoned');
    expect(await statuses('pending-1', projectId)).toEqual(['waiting', 'expiring', 'last call', 'abandoned']);
    const late = await graphql(ConfirmPaymentDocument, { orderId: 'pending-1' });
    expect(late.errors[0].extensions.code).toBe('ORDER_STATUS_CONFLICT');
  });

  it('goes on to print once the payment is confirmed', async () => {
    const projectId = await editableProject(api, auth, { userId: 'pays-late' });
    await graphql(PrintOrderDocument, { input: { ...printBody('pending-2', projectId), paymentPending: true } });
    await waitFor(async () => (await statuses('pending-2', projectId)).includes('expiring'), 20_000, 'expiring');
    const confirmed = await graphql(ConfirmPaymentDocument, { orderId: 'pending-2' });
    expect(confirmed.data.confirmPayment.paymentStatus).toBe('Payment Complete');
    await waitFor(async () => (await statuses('pending-2', projectId)).includes('complete'), 90_000, 'complete');
    const walked = await statuses('pending-2', projectId);
    expect(walked.slice(0, 3)).toEqual(['waiting', 'expiring', 'paid']);
    expect(walked.at(-1)).toBe('complete');
  });
});
