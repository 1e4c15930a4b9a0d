import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import { accessibilityViolations } from '../support/axe';
import { ORDER_STATUSES } from '../../src/domain/order-status';
import type { IssuedClient } from '../../src/services/clients/client-admin';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

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
const FILLERS = 10;

/** What axe-core finds against WCAG 2 A and AA on the page as it is now (none expected). */
const wcagViolations = (page: Page) => accessibilityViolations(page, { tags: ['wcag2a', 'wcag2aa'] });

/**
 * The dashboard an operator runs the day on: an order's whole history from the status-event log
 * (then live), search by order id and customer, a status filter, paging, the address and copies,
 * the webhook endpoint with its deliveries; only ever the signed-in shop's own.
 */
describe.skipIf(!browserAvailable)('the dashboard: history, search, paging and webhooks', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;
  let receiver: WebhookReceiver;
  let photos: PhotoServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let page: Page;
  /** What the browser refused under the page's Content-Security-Policy. */
  const cspViolations: string[] = [];

  const lineStatus = async (orderId: string) =>
    (await request(api.url, 'GET', `/v2/order?orderId=${orderId}`, { headers: auth })).body.lines?.[0]?.status;
  const project = (userId: string) =>
    editableProject(api, auth, { userId, photos: [photos.url('/a.jpg'), photos.url('/b.jpg')] });
  type Name = { firstName: string; lastName: string };
  const place = async (
    orderId: string,
    project: string,
    user: Name,
    options: { quantity?: number; paymentPending?: boolean } = {},
  ) => {
    const body = printBody(orderId, project, { quantity: options.quantity });
    Object.assign(body.user, user);
    const placed = await post(api.url, '/v2/print', { ...body, paymentPending: options.paymentPending ?? false }, auth);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  };
  const cards = () => page.locator('article[data-testid^="order-"]');
  const search = async (fields: Record<string, string>) => {
    for (const [label, value] of Object.entries(fields)) {
      const field = page.getByLabel(label, { exact: true });
      if ((await field.evaluate((e: any) => e.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  const shownOrderIds = async (): Promise<string[]> =>
    cards().evaluateAll((all: any[]) => all.map((e) => e.dataset.testid.slice('order-'.length)));

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '150ms',
      WEBHOOK_RETRY_SPACING: '100ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    });
    shop = await api.createClient('Operations shop');
    auth = serviceHeader(shop.credentials.dev);
    receiver = await startWebhookReceiver();
    photos = await startPhotoServer({
      '/a.jpg': {
        body: await makePhoto({ width: 2400, height: 1800, colour: '#c0392b', takenAt: '2024:06:01 10:00:00' }),
      },
      '/b.jpg': {
        body: await makePhoto({ width: 2400, height: 1800, colour: '#2980b9', takenAt: '2024:06:02 10:00:00' }),
      },
    });
    const setWebhook = 'mutation ($url: String!) { setWebhook(url: $url) { secret } }';
    await post(api.url, '/graphql', { query: setWebhook, variables: { url: receiver.url('/ops') } }, auth);

    // The oldest order, walked by the sandbox printer to complete before the page is opened.
    await place(
      'ops-delivered',
      await project('ops-user'),
      { firstName: 'Ada', lastName: 'Lovelace' },
      { quantity: 2 },
    );
    const projects = await Promise.all(Array.from({ length: FILLERS }, (_, i) => project(`ops-user-${i}`)));
    await waitFor(async () => (await lineStatus('ops-delivered')) === 'complete', 120_000, 'ops-delivered complete');
    // Then newer orders, awaiting payment (nothing to render), one after the other so their order is known.
    for (const [i, id] of projects.entries()) {
      const name =
        i === 3 ? { firstName: 'Grace', lastName: 'Hopper' } : { firstName: 'Alan', lastName: `Turing ${i}` };
      await place(`ops-waiting-${i}`, id, name, { paymentPending: true });
    }
    // Another shop's order: its id must find nothing in this shop's dashboard.
    const other = await api.createClient('Another shop');
    const otherAuth = serviceHeader(other.credentials.dev);
    const otherProject = await editableProject(api, otherAuth, {
      userId: 'other-user',
      photos: [photos.url('/a.jpg')],
    });
    const elsewhere = await post(
      api.url,
      '/v2/print',
      { ...printBody('ops-elsewhere', otherProject), paymentPending: true },
      otherAuth,
    );
    expect(elsewhere.status).toBe(200);

    browser = await launchBrowser();
    context = browser.context;
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel('Access key').fill(shop.credentials.dev.accessKey);
    await page.getByLabel('Access secret').fill(shop.credentials.dev.accessSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitFor(async () => (await cards().count()) === FILLERS + 1, 20_000, 'the orders listed');
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await photos?.close();
    await receiver?.close();
    await api?.stop();
  });

  it('pages through the orders newest first, and filters by the statuses the service knows', async () => {
    const options = page.getByLabel('Status', { exact: true }).locator('option');
    const statuses = await options.evaluateAll((all: any[]) => all.map((o) => o.value));
    expect(statuses).toEqual(['', ...ORDER_STATUSES]);

    await search({ 'Per page': '10' });
    await expect.poll(() => cards().count()).toBe(10);
    expect((await shownOrderIds())[0]).toBe(`ops-waiting-${FILLERS - 1}`);
    expect(await page.getByTestId('order-page').textContent()).toBe('Page 1');
    expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => shownOrderIds()).toEqual(['ops-delivered']);
    expect(await page.getByTestId('order-page').textContent()).toBe('Page 2');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => cards().count()).toBe(10);

    await search({ Status: 'complete' });
    await expect.poll(() => shownOrderIds()).toEqual(['ops-delivered']);
    await search({ Status: 'waiting' });
    await expect.poll(() => cards().count()).toBe(10);
    expect(await shownOrderIds()).not.toContain('ops-delivered');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => cards().count()).toBe(FILLERS + 1);

    // Created dates are UTC days, the "to" day included whole.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await search({ 'Created from (UTC)': today, 'Created to (UTC, inclusive)': today });
    await expect.poll(() => cards().count()).toBe(FILLERS + 1);
    await search({ 'Created from (UTC)': yesterday, 'Created to (UTC, inclusive)': yesterday });
    await expect.poll(() => page.getByText('No orders match').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => cards().count()).toBe(FILLERS + 1);
  }, 60_000);

  it('searches by order id and by customer, and finds nothing of another shop', async () => {
    await search({ 'Order id': 'ops-waiting-7' });
    await expect.poll(() => shownOrderIds()).toEqual(['ops-waiting-7']);
    await search({ 'Order id': '', 'Customer (name or e-mail)': 'grace HOP' });
    await expect.poll(() => shownOrderIds()).toEqual(['ops-waiting-3']);
    await search({ 'Order id': 'ops-elsewhere', 'Customer (name or e-mail)': '' });
    await expect.poll(() => page.getByText('No orders match').count()).toBe(1);
    expect(await cards().count()).toBe(0);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => cards().count()).toBe(FILLERS + 1);
  }, 60_000);

  it('opens a delivered order: its whole history from the event log, its address and copies', async () => {
    await search({ 'Order id': 'ops-delivered' });
    const card = page.getByTestId('order-ops-delivered');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getByTestId('order-address').textContent()).toBe(
      'Ship to: Ada Lovelace, Unter den Linden 1, 10117 Berlin, Berlin, Germany (DE) · +49301234567',
    );
    expect(await card.getByTestId('line-quantity').textContent()).toBe('2 copies');
    expect(await card.getByRole('list', { name: /^History of / }).count()).toBe(0);
    await card.getByRole('button', { name: 'Show history' }).click();
    const history = card.getByRole('list', { name: /^History of / });
    const steps = () => history.locator('.step').allTextContents();
    await expect.poll(steps, { timeout: 10_000 }).toEqual(['created', ...SANDBOX_WALK]);
    expect(await history.locator('.seq').allTextContents()).toEqual(SANDBOX_WALK.map((_, i) => `#${i + 1}`));
    expect(await wcagViolations(page)).toEqual([]);
  }, 60_000);

  it('an open history goes on live after what was recorded, each event once', async () => {
    await search({ 'Order id': 'ops-waiting-5' });
    const card = page.getByTestId('order-ops-waiting-5');
    await expect.poll(() => card.count()).toBe(1);
    await card.getByRole('button', { name: 'Show history' }).click();
    const history = card.getByRole('list', { name: /^History of / });
    await expect
      .poll(() => history.locator('.step').allTextContents(), { timeout: 10_000 })
      .toEqual(['created', 'waiting']);
    expect((await post(api.url, '/v2/order/cancel', { orderId: 'ops-waiting-5' }, auth)).status).toBe(200);
    await expect
      .poll(() => history.locator('.step').allTextContents(), { timeout: 10_000 })
      .toEqual(['created', 'waiting', 'cancelled']);
    expect(await history.locator('.seq').allTextContents()).toEqual(['#1', '#2']);
    // The list was reloaded by the same event: the line's status pill agrees with the history.
    await expect.poll(() => card.getByTestId('line-status').textContent()).toBe('cancelled');
    await page.getByRole('button', { name: 'Clear' }).click();
  }, 60_000);

  it('shows the webhook endpoint and its recent deliveries with their outcome, including a test event sent from there', async () => {
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const endpoint = page.getByTestId('webhook-endpoint');
    await expect
      .poll(() => endpoint.locator('code').first().textContent(), { timeout: 20_000 })
      .toBe(receiver.url('/ops'));
    // The delivered order's events went to the receiver on loopback; each shows its 200.
    const delivered = page.getByRole('row', { name: /order\.line\.delivered/ });
    await expect.poll(() => delivered.count(), { timeout: 20_000 }).toBe(1);
    // Listed while still pending on a busy machine (an order's events go out one after another): wait for its 200.
    await expect.poll(() => delivered.textContent(), { timeout: 30_000 }).toMatch(/delivered.*→ 200 \(\d+ ms\)/);
    expect(receiver.received.some((r) => r.body?.type === 'order.line.delivered')).toBe(true);

    await page.getByRole('button', { name: 'Send a test event' }).click();
    const test = page.getByRole('row', { name: /webhook\.test/ });
    await expect.poll(() => test.textContent(), { timeout: 20_000 }).toMatch(/delivered.*→ 200/);
    await waitFor(
      async () => receiver.received.some((r) => r.body?.type === 'webhook.test'),
      10_000,
      'the test event received',
    );
    // Twenty a page; the rest behind "Older deliveries".
    expect(await page.getByRole('table', { name: 'Recent webhook deliveries' }).locator('tbody tr').count()).toBe(20);
    await page.getByRole('button', { name: 'Older deliveries' }).click();
    await expect
      .poll(() => page.getByRole('table', { name: 'Recent webhook deliveries' }).locator('tbody tr').count())
      .toBeGreaterThan(20);
    expect(await wcagViolations(page)).toEqual([]);
  }, 60_000);

  it('shows a disabled endpoint as a notice with why and since when, and enables it again from there', async () => {
    // Disabled as a failing streak leaves it (the streak itself: test/services/webhooks/webhook-resilience.test.ts).
    const failingSince = new Date(Date.now() - 5 * 24 * 3_600_000);
    await (await api.orm()).em
      .getConnection()
      .execute(
        'UPDATE webhook_endpoints SET failing_since = ?, disabled_at = now(), disabled_reason = ? WHERE client_id = ?',
        [failingSince, 'every event delivery failed since then; last: HTTP 503', shop.clientId],
      );
    await page.getByRole('tab', { name: 'Orders' }).click();
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const notice = page.getByTestId('webhook-disabled');
    await expect
      .poll(() => notice.textContent(), { timeout: 20_000 })
      .toMatch(/Disabled .*GET \/v2\/events.*HTTP 503/s);
    expect(await notice.textContent()).toContain('every event delivery failed since');
    expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Enable the endpoint again' }).click();
    await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(1);
    const [endpoint] = await (await api.orm()).em
      .getConnection()
      .execute('SELECT disabled_at, failing_since FROM webhook_endpoints WHERE client_id = ?', [shop.clientId]);
    expect(endpoint).toEqual({ disabled_at: null, failing_since: null });
  }, 60_000);

  it('broke no rule of its Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
