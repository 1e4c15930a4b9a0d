import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { graphql as graphqlAt } from '../../support/graphql';
import { startPartnerServer } from '../../support/partner-server';
import { waitFor } from '../../support/wait';

/**
 * Partner accounts and callbacks through the service: a shop sets its Prodigi account with
 * GraphQL (the key never comes back), Prodigi's callbacks reach the account's callback URL and
 * move the shop's order line as Prodigi's API (a loopback Prodigi, PRINT_PARTNER_BASE_URLS) says,
 * never backwards; a callback with no account, about another shop's job, or about an order the
 * account does not have is refused.
 */
describe('partner accounts and callbacks', () => {
  const orders = new Map<string, Record<string, any>>();
  const prodigi = startPartnerServer((req) => {
    const id = /^\/v4\.0\/orders\/([^/]+)$/.exec(req.path)?.[1];
    const order = id && orders.get(id);
    return order && req.headers['x-api-key'] === 'prodigi-key-of-shop-a'
      ? { status: 200, body: { outcome: 'Ok', order } }
      : { status: 404, body: { outcome: 'EntityNotFound', statusCode: 404 } };
  });
  let api: TestService;

  beforeAll(async () => {
    const base = await prodigi.listen();
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '1h',
      PRINT_PARTNER_BASE_URLS: `prodigi=${base}/v4.0`,
    });
  });
  afterAll(async () => {
    await api?.stop();
    await prodigi.close();
  });

  const graphql = (auth: Record<string, string>, query: string, variables?: Record<string, unknown>) =>
    graphqlAt(api.url, auth, query, variables);
  const SET = `mutation ($input: SetPartnerAccountInput!) { setPartnerAccount(input: $input) {
    partner env credentialHint callbackUrl shippingMethods { level method } } }`;
  const callback = (url: string, order: Record<string, unknown>) =>
    request(api.url, 'POST', new URL(url).pathname, {
      rawBody: JSON.stringify({
        specversion: '1.0',
        type: 'com.prodigi.order.status.stage.changed#InProgress',
        source: 'https://api.sandbox.prodigi.com/v4.0/Orders/',
        id: `evt_${Math.floor(Math.random() * 1e6)}`,
        time: new Date().toISOString(),
        datacontenttype: 'application/json',
        data: { order },
        subject: order.id,
      }),
      headers: { 'content-type': 'application/json' },
    });

  it('sets accounts without showing credentials, and moves the line as Prodigi says, never backwards', async () => {
    const a = await api.createClient('Partner shop A');
    const b = await api.createClient('Partner shop B');
    // Live (prod): the local printer takes A's job, and the fulfilment waits for printer events as it does for a partner's.
    const authA = serviceHeader(a.credentials.prod);
    const authB = serviceHeader(b.credentials.dev);

    const set = await graphql(authA, SET, {
      input: {
        partner: 'prodigi',
        credentials: { apiKey: 'prodigi-key-of-shop-a' },
        shippingMethods: [{ level: 'standard', method: 'Budget' }],
      },
    });
    expect(set.errors).toBeUndefined();
    const account = set.data.setPartnerAccount;
    expect(account).toMatchObject({
      partner: 'prodigi',
      env: 'prod',
      credentialHint: '…op-a',
      shippingMethods: [{ level: 'standard', method: 'Budget' }],
    });
    expect(account.callbackUrl).toMatch(/\/v2\/printers\/prodigi\/callbacks\/[A-Za-z0-9_-]{32}$/);
    expect(JSON.stringify(set)).not.toContain('prodigi-key-of-shop-a');
    const invalid = await graphql(authA, SET, { input: { partner: 'lulu', credentials: { apiKey: 'x' } } });
    expect(invalid.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');

    const setB = await graphql(authB, SET, {
      input: { partner: 'prodigi', credentials: { apiKey: 'prodigi-key-of-shop-b' } },
    });
    const listB = await graphql(authB, '{ partnerAccounts { partner credentialHint callbackUrl } }');
    expect(listB.data.partnerAccounts).toEqual([
      { partner: 'prodigi', credentialHint: '…op-b', callbackUrl: setB.data.setPartnerAccount.callbackUrl },
    ]);

    // A's order, sent to the local printer until routing sends such jobs to Prodigi: here it becomes Prodigi's ord_1.
    const projectId = await editableProject(api, authA, { userId: 'partner-1' });
    expect((await post(api.url, '/v2/print', printBody('partner-order-1', projectId), authA)).status).toBe(200);
    const em = (await api.orm()).em.fork();
    await waitFor(
      async () => (await em.fork().findOneOrFail(OrderLine, { project: projectId })).status === 'sent printjob',
      120_000,
      'sent printjob',
    );
    const line = await em.findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
    await em.nativeUpdate(OrderLine, { id: line.id }, { printerJobId: 'ord_1' });
    const order = {
      id: 'ord_1',
      merchantReference: `${line.order.id}:${projectId}`,
      status: { stage: 'InProgress', issues: [], details: { inProduction: 'InProgress', shipping: 'NotStarted' } },
      shipments: [],
    };
    orders.set('ord_1', order);
    const statusOf = async () => (await em.fork().findOneOrFail(OrderLine, { id: line.id })).status;

    const printing = await callback(account.callbackUrl, { ...order, status: { stage: 'Complete' } });
    expect(printing.status).toBe(202);
    await waitFor(async () => (await statusOf()) === 'printing', 30_000, 'printing');

    Object.assign(order, {
      status: { stage: 'Complete', issues: [], details: { inProduction: 'Complete', shipping: 'Complete' } },
      shipments: [
        {
          id: 'shp_1',
          status: 'Shipped',
          carrier: { name: 'Royal Mail', service: 'Tracked 48' },
          tracking: { number: 'AB123456789GB', url: 'https://www.royalmail.com/track/AB123456789GB' },
        },
      ],
    });
    expect((await callback(account.callbackUrl, order)).status).toBe(202);
    await waitFor(async () => (await statusOf()) === 'delivering', 30_000, 'delivering');
    const shipped = await em.fork().findOneOrFail(OrderLine, { id: line.id });
    expect(shipped.parcels).toEqual([
      {
        carrier: 'Royal Mail Tracked 48',
        trackingNumber: 'AB123456789GB',
        trackingUrl: 'https://www.royalmail.com/track/AB123456789GB',
      },
    ]);

    // A late callback (Prodigi's answer is still "delivering") and a replay change nothing.
    expect((await callback(account.callbackUrl, order)).status).toBe(202);
    expect(await statusOf()).toBe('delivering');

    // No account with that token; B's account asking about A's order (Prodigi knows it not under B's key); a body naming no order.
    const unknown = await callback(account.callbackUrl.replace(/[A-Za-z0-9_-]{32}$/, 'x'.repeat(32)), order);
    expect([unknown.status, unknown.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const crossed = await callback(setB.data.setPartnerAccount.callbackUrl, order);
    expect([crossed.status, crossed.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const nameless = await callback(account.callbackUrl, { id: 'nope' });
    expect([nameless.status, nameless.body.code]).toEqual([400, 'MALFORMED_EVENT']);
    expect(await statusOf()).toBe('delivering');

    // Removed: its callback URL stops working.
    const removed = await graphql(authA, 'mutation { removePartnerAccount(partner: prodigi) }');
    expect(removed.data.removePartnerAccount).toBe(true);
    expect((await callback(account.callbackUrl, order)).status).toBe(401);
    expect((await graphql(authA, '{ partnerAccounts { partner } }')).data.partnerAccounts).toEqual([]);
  });
});
