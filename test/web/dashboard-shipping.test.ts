import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import type { IssuedClient } from '../../src/services/clients/client-admin';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

/** The dashboard shows an order's shipping level, its quote and the warnings recorded on it. */
describe.skipIf(!browserAvailable)('the dashboard: shipping level, quote and warnings of an order', () => {
  let api: TestService;
  let shop: IssuedClient;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '1h' });
    shop = await api.createClient('Dashboard shop');
    browser = await launchBrowser();
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('shows the level an order ships with, the quote it matched and the warning about an unknown method', async () => {
    const auth = serviceHeader(shop.credentials.dev);
    const legacyProject = await editableProject(api, auth, { userId: 'dash-legacy' });
    const legacy: any = printBody('dash-legacy', legacyProject);
    legacy.payment.shipping.method = 'DHL Paket';
    expect((await post(api.url, '/v2/print', legacy, auth)).status).toBe(200);

    const quotedProject = await editableProject(api, auth, { userId: 'dash-quoted' });
    const quote = (
      await post(
        api.url,
        '/v2/quote',
        {
          marketId: 0,
          countryIso2: 'DE',
          shippingLevel: 'express',
          lines: [{ projectId: quotedProject, quantity: 1 }],
        },
        auth,
      )
    ).body;
    const quoted: any = printBody('dash-quoted', quotedProject);
    Object.assign(quoted, { quoteId: quote.quoteId });
    quoted.projects[0].lineItemTotal = quote.lines[0].lineTotal;
    quoted.payment = { grandTotal: quote.grandTotal, shipping: { method: 'express', cost: quote.shipping } };
    expect((await post(api.url, '/v2/print', quoted, auth)).status).toBe(200);

    const page = await context.newPage();
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel('Access key').fill(shop.credentials.dev.accessKey);
    await page.getByLabel('Access secret').fill(shop.credentials.dev.accessSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const shipping = (orderId: string) => page.getByTestId(`order-${orderId}`).getByTestId('order-shipping');
    await expect
      .poll(() => shipping('dash-legacy').textContent(), { timeout: 20_000 })
      .toBe('Shipping: standard (sent as “DHL Paket”) · no quote');
    expect(
      await page.getByTestId('order-dash-legacy').getByRole('list', { name: 'Order warnings' }).textContent(),
    ).toBe('payment.shipping.method "DHL Paket" is not a shipping level of market eu; shipped with "standard"');
    expect(await shipping('dash-quoted').textContent()).toBe(`Shipping: express · quote ${quote.quoteId}`);
    expect(await page.getByTestId('order-dash-quoted').getByRole('list', { name: 'Order warnings' }).count()).toBe(0);
    await page.close();
  }, 120_000);
});
