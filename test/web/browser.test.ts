import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { currentEditorLink } from '../support/editor-link';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import { ClientAdmin, type IssuedClient } from '../../src/services/clients/client-admin';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';
import { graphql as graphqlAt } from '../support/graphql';
import { seriousAccessibilityViolations } from '../support/axe';

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

/** Serves on loopback; each photo answers after a pause, so the editor shows the book being built. */
async function serve(
  handler: (url: string) => Promise<{ status?: number; type: string; body: string | Buffer } | undefined>,
) {
  const server = http.createServer(async (req, res) => {
    const answer = await handler(req.url ?? '/');
    if (!answer) return res.writeHead(404).end('not found');
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A shop's page framing the editor URL it is given (`?editor=`), keeping every channel message it hears. */
async function shopPage(url: string) {
  const target = new URL(url, 'http://host').searchParams.get('editor');
  if (!target) return undefined;
  return {
    type: 'text/html',
    body: `<!doctype html><title>Shop</title><body style="margin:0"><script>window.messages = []; addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe title="Photobook editor" src="${target.replace(/"/g, '&quot;')}" style="width:100vw;height:100vh;border:0"></iframe></body>`,
  };
}

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

describe.skipIf(!browserAvailable)('the editor and the dashboard in a real browser', () => {
  let api: TestService;
  let shop: IssuedClient;
  let photos: Awaited<ReturnType<typeof serve>>;
  let host: Awaited<ReturnType<typeof serve>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let editorUrl: string;
  let projectId: string;
  const servedUntilTheEnd: { close(): Promise<void> }[] = [];
  /** What the browser refused under a page's Content-Security-Policy, on every page of the run. */
  const cspViolations: string[] = [];

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '400ms',
      WEBHOOK_RETRY_SPACING: '100ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    });
    shop = await api.createClient('Browser shop');
    const colours = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#d35400', '#16a085', '#f39c12', '#2c3e50'];
    const images = new Map<string, Buffer>();
    for (const [i, colour] of colours.entries()) {
      images.set(
        `/p${i}.jpg`,
        await makePhoto({ width: 3600, height: 2600, colour, takenAt: `2024:06:0${i + 1} 10:00:00` }),
      );
    }
    // Far below print resolution (about 40 DPI on its page, or on the cover if chosen for it), yet above the preflight's blocking 30 DPI.
    images.set(
      '/tiny.jpg',
      await makePhoto({ width: 480, height: 360, colour: '#7f8c8d', takenAt: '2024:06:09 10:00:00' }),
    );
    photos = await serve(async (url) => {
      await new Promise((r) => setTimeout(r, 1200));
      const body = images.get(url);
      return body && { type: 'image/jpeg', body };
    });
    // The shop's page: it frames the editor and keeps every channel message it hears. The client
    // lists its origin, so the editor's CSP lets it frame the editor.
    host = await serve(shopPage);
    await new ClientAdmin(api.service.orm.em.fork(), await loadCredentialPepper(api.config)).setShopOrigins(
      shop.clientId,
      [host.url],
    );
    browser = await launchBrowser();
    context = browser.context;
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servedUntilTheEnd) await server.close();
    await host?.close();
    await photos?.close();
    await api?.stop();
  });

  it('opens the link /v2/generate returned, builds the book live, keeps a page move and a new title across a reload, and tells the host about the order', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'browser-user',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        custom: { title: 'Summer in Provence' },
        photos: [
          ...Array.from({ length: 8 }, (_, i) => `${photos.url}/p${i}.jpg`),
          `${photos.url}/tiny.jpg`,
          `${photos.url}/gone.jpg`,
        ],
      },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status).toBe(200);
    editorUrl = generated.body.url;
    projectId = new URL(editorUrl).searchParams.get('id')!;
    expect(new URL(editorUrl).pathname).toBe('/editor');

    const page = await context.newPage();
    await page.goto(`${host.url}/?editor=${encodeURIComponent(editorUrl)}`);
    const editor = page.frameLocator('iframe');
    const status = editor.getByTestId('project-status');
    // Live: the photos take over a second each, so the editor first shows the book being built...
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/Getting started|Building your book/);
    await expect.poll(() => editor.getByRole('progressbar', { name: 'Photos ready' }).count()).toBe(1);
    // ...then the built book, without a reload.
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('Ready to edit');
    await expect.poll(() => editor.locator('[data-testid^="page-"]').count()).toBe(24);
    await expect.poll(() => editor.getByText('Could not be downloaded').count()).toBeGreaterThan(0);
    await expect.poll(() => editor.getByText(/Too small for print/).count()).toBe(1);

    const firstPhotoOf = async (n: number) =>
      editor.getByTestId(`page-${n}`).locator('[data-photo-id]').first().getAttribute('data-photo-id');
    const [one, two] = [await firstPhotoOf(1), await firstPhotoOf(2)];
    expect(one).not.toBe(two);
    await editor.getByRole('button', { name: 'Move page 1 right' }).click();
    await expect.poll(() => editor.getByText('Saved: moved page 1 to 2').count()).toBe(1);
    expect([await firstPhotoOf(1), await firstPhotoOf(2)]).toEqual([two, one]);

    await editor.getByLabel('Title', { exact: true }).fill('Provence, June 2024');
    await editor.getByRole('button', { name: 'Save cover' }).click();
    await expect.poll(() => editor.getByRole('heading', { level: 1 }).textContent()).toBe('Provence, June 2024');

    const messages = async () =>
      (await page.evaluate(() => (globalThis as any).messages)) as { origin: string; data: any }[];
    const beforeReload = await messages();
    expect(beforeReload.every((m) => m.origin === api.url)).toBe(true);
    expect(beforeReload.map((m) => [m.data.type, m.data.change])).toEqual([
      ['ready', undefined],
      ['saved', 'moved page 1 to 2'],
      ['saved', 'cover texts'],
    ]);
    expect(beforeReload[2].data).toMatchObject({
      source: 'photobook-editor',
      projectId,
      pageCount: 24,
      title: 'Provence, June 2024',
    });

    await page.reload();
    const reloaded = page.frameLocator('iframe');
    await expect
      .poll(() => reloaded.getByTestId('project-status').textContent(), { timeout: 20_000 })
      .toBe('Ready to edit');
    expect(await reloaded.getByRole('heading', { level: 1 }).textContent()).toBe('Provence, June 2024');
    expect(await reloaded.getByLabel('Title', { exact: true }).inputValue()).toBe('Provence, June 2024');
    expect(await reloaded.getByTestId('page-1').locator('[data-photo-id]').first().getAttribute('data-photo-id')).toBe(
      two,
    );

    await reloaded.getByRole('button', { name: 'Order' }).click();
    await expect.poll(async () => (await messages()).some((m) => m.data.type === 'order-requested')).toBe(true);
    // In the shop's frame, the editor says where the book went (and not that it is in a cart).
    expect(await reloaded.getByTestId('order-outcome').getByRole('heading').textContent()).toBe('Sent to the shop');
    expect(await reloaded.getByText(/on its way to the cart/).count()).toBe(0);
    const all = await messages();
    expect(all.every((m) => m.origin === api.url)).toBe(true);
    expect(all.map((m) => m.data.type)).toEqual(['ready', 'order-requested']);
    expect(all.find((m) => m.data.type === 'order-requested')!.data).toEqual({
      source: 'photobook-editor',
      type: 'order-requested',
      projectId,
      sku: 'PB-HC-A4-L',
      psp: 'local',
      pageCount: 24,
      extraPages: 0,
      title: 'Provence, June 2024',
    });
    await page.close();
  }, 180_000);

  it('is usable with the keyboard and on a phone-sized screen; screenshots for the README', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.goto(editorUrl);
    await expect
      .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
      .toBe('Ready to edit');
    await page.waitForFunction(() => [...(globalThis as any).document.images].every((img: any) => img.complete));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor.png') });

    // Keyboard: focus a page's move button and press Enter; the pages swap back.
    const before = await page.getByTestId('page-1').locator('[data-photo-id]').first().getAttribute('data-photo-id');
    await page.getByRole('button', { name: 'Move page 2 left' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('Saved: moved page 2 to 1').count()).toBe(1);
    expect(await page.getByTestId('page-2').locator('[data-photo-id]').first().getAttribute('data-photo-id')).toBe(
      before,
    );

    // A page's layout from its labelled select: the photo now fills a quarter-page slot.
    await page.getByLabel('Layout of page 1', { exact: true }).selectOption('grid-4');
    await expect.poll(() => page.getByText('Saved: layout of page 1').count()).toBe(1);
    const slot = await page
      .getByTestId('page-1')
      .locator('[data-photo-id]')
      .first()
      .evaluate((e: any) => e.style.width);
    expect(parseFloat(slot)).toBeLessThan(50);

    // Move a photo onto the last (blank) page: select it, then the page's "move here" button.
    const moving = await page.getByTestId('page-3').locator('[data-photo-id]').first().getAttribute('data-photo-id');
    await page.getByRole('button', { name: /^Photo 1 on page 3/ }).click();
    await expect
      .poll(() => page.getByRole('button', { name: /^Photo 1 on page 3/ }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByRole('button', { name: 'Move the selected photo to page 24' }).click();
    await expect
      .poll(() => page.getByTestId('page-24').locator('[data-photo-id]').first().getAttribute('data-photo-id'))
      .toBe(moving);
    expect(await page.getByTestId('page-3').locator('[data-photo-id]').count()).toBe(0);

    // A caption on page 2, and page 2's first photo selected with the keyboard alone: Tab to it, Space.
    await page.getByText('Text on page 2', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Lavender fields');
    await page.getByTestId('caption-add-2').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('caption-2-0').textContent()).toBe('Lavender fields');
    await page.getByRole('button', { name: /^Photo 1 on page 2[,.]/ }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('crop-tools').count()).toBe(1);
    await page.getByRole('button', { name: 'Show more of the photo to the right' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('Saved: moved photo 1 in its frame on page 2').count()).toBe(1);
    await page.getByRole('button', { name: /^Photo 1 on page 2[,.]/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('crop-tools').count()).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => (globalThis as any).document.scrollingElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    // Every control a finger can reach is at least 44 × 44 CSS pixels.
    const small = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll('button, select, input, textarea, summary, a[href]')]
        .filter((e: any) => e.checkVisibility())
        .map((e: any) => ({ e, box: e.getBoundingClientRect() }))
        .filter(({ box }: any) => box.width < 44 || box.height < 44)
        .map(
          ({ e, box }: any) =>
            `${e.tagName.toLowerCase()} "${e.getAttribute('aria-label') ?? e.textContent.trim()}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        ),
    );
    expect(small).toEqual([]);
    // The editor with its preflight panel, crop tools open and a caption: nothing serious for axe-core.
    expect(await page.getByRole('region', { name: 'Before you order' }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Keyboard alone: Tab from the top reaches every control on the page, each with a visible focus ring.
    const controls = await page.evaluate(
      () =>
        [...(globalThis as any).document.querySelectorAll('button, select, input, textarea, summary, a[href]')].filter(
          (e: any) => e.checkVisibility() && !e.disabled,
        ).length,
    );
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    // A click on no control moves the starting point of Tab to the top of the page.
    await page.mouse.click(2, 2);
    const reached = new Set<string>();
    const unringed: string[] = [];
    for (let i = 0; i < controls + 5; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const e = (globalThis as any).document.activeElement;
        if (!e || e === (globalThis as any).document.body) return null;
        const all = [...(globalThis as any).document.querySelectorAll('*')];
        const style = (globalThis as any).getComputedStyle(e);
        return {
          at: all.indexOf(e),
          name: `${e.tagName} ${e.getAttribute('aria-label') ?? e.textContent.trim().slice(0, 40)}`,
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        };
      });
      if (!focused) continue;
      reached.add(String(focused.at));
      if (!focused.ring) unringed.push(focused.name);
    }
    expect(reached.size).toBe(controls);
    expect(unringed).toEqual([]);

    // Nothing wider than the screen: the elements that stick out, if any, are named.
    const wider = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const width = doc.documentElement.clientWidth;
      return [...doc.querySelectorAll('body *')]
        .filter((e: any) => e.getBoundingClientRect().right > width + 1)
        .map((e: any) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`);
    });
    expect(wider).toEqual([]);
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-phone.png') });
    await page.close();
  }, 60_000);

  it("the dashboard signs in with a client's key and secret and shows a sandbox order walk to complete, live", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.url}/dashboard`);
    await page.getByLabel('Access key').fill(shop.credentials.dev.accessKey);
    await page.getByLabel('Access secret').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Unknown access key or wrong secret.');
    await page.getByLabel('Access key').fill(shop.credentials.dev.accessKey);
    await page.getByLabel('Access secret').fill(shop.credentials.dev.accessSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('No orders yet').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.evaluate(() => Object.keys((globalThis as any).localStorage).length)).toBe(0);

    const printed = await request(api.url, 'POST', '/v2/print', {
      headers: serviceHeader(shop.credentials.dev),
      body: printBody('browser-order-1', projectId),
    });
    expect(printed.status).toBeLessThan(300);
    const order = page.getByTestId('order-browser-order-1');
    // Opened while it walks: the history replays what was recorded, then goes on live over graphql-ws.
    await expect.poll(() => order.getByTestId('line-status').textContent(), { timeout: 60_000 }).not.toBe('waiting');
    await order.getByRole('button', { name: 'Show history' }).click();
    const steps = order.getByRole('list', { name: /^History of / }).locator('.step');
    const history = [
      'created',
      'paid',
      'received',
      'processing',
      'rendering',
      'rendered',
      'sending printjob',
      'sent printjob',
    ];
    history.push('accepted', 'printing', 'printed', 'delivering', 'complete');
    await expect.poll(() => steps.allTextContents(), { timeout: 120_000 }).toEqual(history);
    await expect.poll(() => order.getByTestId('line-status').textContent(), { timeout: 10_000 }).toBe('complete');
    expect(await page.getByRole('link', { name: 'Track the parcel' }).count()).toBe(1);
    // The rendered PDF, through the signed link the owner is given.
    // The cover sheet as printed: its preview image, loaded.
    const sheet = page.getByRole('img', { name: /^Cover sheet of .+, as printed$/ });
    await expect.poll(() => sheet.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(1200);
    const coverUrl = await page.getByRole('link', { name: 'Cover PDF' }).getAttribute('href');
    expect((await fetch(new URL(coverUrl!, api.url))).status).toBe(200);
    const pdfUrl = await page.getByRole('link', { name: 'Interior PDF' }).getAttribute('href');
    const pdf = await fetch(new URL(pdfUrl!, api.url));
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png'), fullPage: true });
    // Signed in, an order open with its history: nothing serious for axe-core.
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Each order's events; Cancel and Change address only while the order allows them.
    const first = page.getByTestId('order-browser-order-1');
    await first.getByText('Events', { exact: true }).click();
    await expect
      .poll(() => first.getByTestId('events-browser-order-1').locator('li').count(), { timeout: 10_000 })
      .toBe(14);
    expect(await first.getByTestId('events-browser-order-1').locator('li').first().textContent()).toContain(
      'order.line.status_changed #1 paid',
    );
    expect(await first.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await first.getByRole('button', { name: 'Change address' }).count()).toBe(0);
    const auth = serviceHeader(shop.credentials.dev);
    const unpaid = await editableProject(api, auth, { userId: 'browser-cancel' });
    expect(
      (
        await request(api.url, 'POST', '/v2/print', {
          headers: auth,
          body: { ...printBody('browser-order-2', unpaid), paymentPending: true },
        })
      ).status,
    ).toBe(200);
    const second = page.getByTestId('order-browser-order-2');
    await expect
      .poll(() => second.getByRole('button', { name: 'Change address' }).count(), { timeout: 20_000 })
      .toBe(1);
    await second.getByRole('button', { name: 'Change address' }).click();
    await second.getByLabel('Street').fill('Kungsgatan 2');
    await second.getByLabel('Postcode').fill('111 43');
    await second.getByLabel('City').fill('Stockholm');
    await second.getByLabel('Country (ISO)').fill('SE');
    await second.getByRole('button', { name: 'Save address' }).click();
    const addressOf = async () =>
      (await request(api.url, 'GET', '/v2/order?orderId=browser-order-2', { headers: auth })).body.recipient.address;
    await expect.poll(async () => (await addressOf()).countryIso2, { timeout: 10_000 }).toBe('SE');
    expect(await addressOf()).toMatchObject({ line1: 'Kungsgatan 2', postcode: '111 43', city: 'Stockholm' });
    page.once('dialog', (dialog) => void dialog.accept());
    await second.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => second.getByTestId('line-status').textContent(), { timeout: 20_000 }).toBe('cancelled');
    expect(await second.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    // Projects per end user, each linking to the editor.
    await page.getByRole('tab', { name: 'Projects' }).click();
    await page.getByLabel('End user (userId or e-mail)').fill('browser-user');
    await page.getByRole('button', { name: 'Show projects' }).click();
    await expect
      .poll(() => page.getByRole('link', { name: projectId }).getAttribute('href'))
      .toContain(`/editor?id=${projectId}`);
    await page.close();
  }, 180_000);

  it("the dashboard shows a campaign's progress and rows, and replays its failed webhook delivery", async () => {
    let shopUp = false;
    const receiver = await serve(async (url) =>
      url.startsWith('/hook') ? { status: shopUp ? 200 : 503, type: 'text/plain', body: 'ok' } : undefined,
    );
    const csv = await serve(async (url) =>
      url === '/list.csv'
        ? { type: 'text/csv', body: 'reference,userId,sku,psp,marketId\nref-1,campaign-user,PB-HC-A4-L,local,0\n' }
        : undefined,
    );
    try {
      const auth = serviceHeader(shop.credentials.dev);
      const gql = (query: string, variables: Record<string, unknown>) => graphqlAt(api.url, auth, query, variables);
      await gql('mutation ($url: String!) { setWebhook(url: $url) { secret } }', { url: `${receiver.url}/hook` });
      const started = await gql('mutation ($csv: String!) { startCampaign(csvUrl: $csv) { campaign { id } } }', {
        csv: `${csv.url}/list.csv`,
      });
      const campaignId = started.data.startCampaign.campaign.id;

      const page = await context.newPage();
      await page.goto(`${api.url}/dashboard`); // a new tab: a new session, so sign in again
      await page.getByLabel('Access key').fill(shop.credentials.dev.accessKey);
      await page.getByLabel('Access secret').fill(shop.credentials.dev.accessSecret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('tab', { name: 'Campaigns' }).click();
      const progress = page.getByRole('progressbar', { name: `Campaign ${campaignId} progress` });
      await expect.poll(() => progress.getAttribute('aria-valuenow'), { timeout: 60_000 }).toBe('100');
      await page.getByText('Webhook deliveries').click();
      const row = page.getByRole('row', { name: /ref-1/ });
      // The shop's endpoint answers 503: the delivery is retried, then marked failed.
      await expect
        .poll(() => row.getByRole('cell', { name: 'failed', exact: true }).count(), { timeout: 60_000 })
        .toBe(1);
      shopUp = true;
      await page.getByRole('button', { name: 'Replay the webhook for ref-1' }).click();
      await expect
        .poll(() => row.getByRole('cell', { name: 'delivered', exact: true }).count(), { timeout: 30_000 })
        .toBe(1);
      await page.getByText('Rows', { exact: true }).click();
      // The CSV's one row is line 2 (the header is line 1), with its reference and its project.
      await expect.poll(() => page.getByRole('row', { name: /^2 ref-1 \w+ p-/ }).count()).toBe(1);
      await page.close();
    } finally {
      await receiver.close();
      await csv.close();
    }
  }, 180_000);

  it("draws the cover sheet as it prints, shows the preflight's problems where they sit, and its Order button says what blocks", async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'preflight-user',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        custom: { title: 'Blocked', backCover: 'Written on the back' },
        photos: [`${photos.url}/p0.jpg`, `${photos.url}/p1.jpg`],
      },
      serviceHeader(shop.credentials.dev),
    );
    const id = new URL(generated.body.url).searchParams.get('id')!;
    await expect
      .poll(
        async () =>
          (
            await request(api.url, 'GET', `/v2/project/status?id=${id}`, {
              headers: serviceHeader(shop.credentials.dev),
            })
          ).body.status?.project,
        { timeout: 60_000 },
      )
      .toBe('editable');
    const db = (await api.orm()).em.getConnection();
    const [row] = await db.execute(`SELECT book FROM projects WHERE id = ?`, [id]);
    const book = typeof row.book === 'string' ? JSON.parse(row.book) : row.book;
    const placed = book.pages.find((p: { photos: unknown[] }) => p.photos.length > 0);
    await db.execute(`UPDATE photos SET status = 'failed', original_key = NULL, problem = ? WHERE id = ?`, [
      JSON.stringify({ code: 'HTTP_STATUS', message: 'the photo URL answered 404' }),
      placed.photos[0].photoId,
    ]);

    const page = await context.newPage();
    await page.goto(generated.body.url);
    await expect
      .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
      .toBe('Ready to edit');
    const order = page.getByTestId('order');
    expect(await order.textContent()).toBe(`Cannot order: a photo failed on page ${placed.number}`);
    expect(await order.isDisabled()).toBe(true);
    const list = page.getByRole('region', { name: 'Before you order' });
    expect(await list.getByRole('heading').textContent()).toBe('Before you order: fix these first');
    expect(await list.locator('[data-code="PHOTO_FAILED"]').textContent()).toContain(`Page ${placed.number}, photo 1`);
    expect(await page.getByTestId(`page-${placed.number}`).getByText('Cannot print').count()).toBe(1);
    // The spread: back text on the back panel; a 24-page spine is too thin for its title.
    expect(await page.getByTestId('cover-back').textContent()).toBe('Written on the back');
    expect(await page.getByTestId('cover-spine').textContent()).toBe('');
    await page.close();
  }, 120_000);

  it("serves the demo catalogue's pictures under the baseUrl the catalogue reports", async () => {
    const catalogue = await post(api.url, '/api/v2/product/list-product.php', {
      env: 'dev',
      key: shop.credentials.dev.apiKey,
      os: 'web',
      marketId: 0,
      language: 'en',
    });
    const body = catalogue.body;
    const baseUrl: string = body.baseUrl ?? body.data?.baseUrl;
    const thumbnail: string = JSON.stringify(body).match(/"thumbnail":"([^"]+)"/)![1];
    const response = await fetch(`${baseUrl}${thumbnail}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const sharp = (await import('sharp')).default;
    expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBeGreaterThan(100);
    expect((await fetch(`${baseUrl}products/not-in-the-catalogue.jpg`)).status).toBe(404);
  });

  it('a page of an origin the client did not list cannot frame the editor', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'framed-user', sku: 'PB-HC-A4-L', psp: 'local', marketId: 0 },
      serviceHeader(shop.credentials.dev),
    );
    const stranger = await serve(shopPage);
    const page = await context.newPage();
    try {
      await page.goto(`${stranger.url}/?editor=${encodeURIComponent(generated.body.url)}`);
      // Chromium blocks the frame and says why: the directive, with the one origin it allows (the client's shop).
      await expect
        .poll(
          () => cspViolations.filter((text) => text.includes('frame-ancestors') && text.includes(host.url)).length,
          { timeout: 20_000 },
        )
        .toBeGreaterThan(0);
    } finally {
      await page.close();
      // Closed after the browser: its kept-alive connection would hold server.close() until then.
      servedUntilTheEnd.push(stranger);
    }
  }, 60_000);

  it('an open editor stops showing the book once the project goes to another owner, and its link then opens nothing', async () => {
    const auth = serviceHeader(shop.credentials.dev);
    const giving = await editableProject(api, auth, { userId: 'giving-user' });
    const oldLink = await currentEditorLink(api.url, auth, giving);
    const page = await context.newPage();
    try {
      await page.goto(oldLink);
      await expect
        .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
        .toBe('Ready to edit');
      const transferred = await post(api.url, '/v2/project/transfer', { id: giving, targetUser: 'taking-user' }, auth);
      expect(transferred.status).toBe(200);
      // The socket closes with 4410: the page drops the book and says why, without a reload.
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
        .toBe('This photobook link is not valid any more.');
      expect(await page.getByTestId('project-status').count()).toBe(0);
      await page.reload();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
        .toBe('This photobook link is not valid any more.');
      // The new owner's link opens the book.
      await page.goto(transferred.body.link);
      await expect
        .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
        .toBe('Ready to edit');
    } finally {
      await page.close();
    }
  }, 90_000);

  /** An order for `id` of `total` (its one line's lineItemTotal), awaiting payment so its status stays `waiting`. */
  const placeOrder = async (orderId: string, id: string, total: number) => {
    const body = printBody(orderId, id);
    body.projects[0].lineItemTotal = total;
    body.payment.grandTotal = Math.round((total - body.payment.coupon.value + body.payment.shipping.cost) * 100) / 100;
    const placed = await post(
      api.url,
      '/v2/print',
      { ...body, paymentPending: true },
      serviceHeader(shop.credentials.dev),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  };

  it("speaks the link's language: German words, dates and prices when the link says language=de", async () => {
    const auth = serviceHeader(shop.credentials.dev);
    // The link generate answers carries the project's language (the short `link` of a project object does not).
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'german-user',
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        language: 'de',
        custom: { title: 'Sommer in der Provence' },
        photos: [`${photos.url}/p0.jpg`, `${photos.url}/p1.jpg`, `${photos.url}/p2.jpg`],
      },
      auth,
    );
    expect(generated.status).toBe(200);
    const link: string = generated.body.url;
    const id = new URL(link).searchParams.get('id')!;
    expect(new URL(link).searchParams.get('language')).toBe('de');
    const page = await context.newPage();
    try {
      await page.goto(link);
      await expect
        .poll(() => page.getByTestId('project-status').textContent(), { timeout: 60_000 })
        .toBe('Bereit zum Bearbeiten');
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('de');
      expect(await page.title()).toBe('Fotobuch-Editor');
      expect(await page.getByTestId('order').textContent()).toBe('Bestellen');
      expect(await page.getByTestId('undo').textContent()).toBe('Rückgängig');
      expect(await page.getByRole('button', { name: 'Umschlag speichern' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Seite 1 nach rechts verschieben' }).count()).toBe(1);
      expect(await page.getByLabel('Layout von Seite 1', { exact: true }).count()).toBe(1);
      // The date the project is kept until, as German writes it (day.month.year).
      const { body: project } = await post(
        api.url,
        '/graphql',
        { query: 'query ($id: String!) { project(id: $id) { expiresAt } }', variables: { id } },
        auth,
      );
      const keptUntil = await page.getByTestId('kept-until').textContent();
      expect(keptUntil).toMatch(/^gespeichert bis \d{2}\.\d{2}\.\d{4}$/);
      expect(keptUntil).toBe(
        `gespeichert bis ${new Intl.DateTimeFormat('de', { dateStyle: 'medium' }).format(new Date(project.data.project.expiresAt))}`,
      );
      // German words are longer: still nothing sticks out sideways on a phone.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => (globalThis as any).document.scrollingElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      await page.setViewportSize({ width: 1280, height: 900 });
      // An edit is saved in German; the shop's page would still hear English words (docs/api.md).
      await page.getByRole('button', { name: 'Seite 1 nach rechts verschieben' }).click();
      await expect.poll(() => page.getByText('Gespeichert: Seite 1 an Stelle 2 verschoben').count()).toBe(1);

      // Each of the other languages: its own words on the Order button and in the tab's title, no key shown raw.
      for (const locale of ['fr', 'es', 'it', 'nl', 'en']) {
        const { messages } = await import(`../../web/app/locales/${locale}.js`);
        const url = new URL(link);
        url.searchParams.set('language', locale);
        await page.goto(url.toString());
        await expect.poll(() => page.getByTestId('order').textContent(), { timeout: 20_000 }).toBe(messages.order);
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe(locale);
        expect(await page.title()).toBe(messages.pageTitle);
        const text = await page.evaluate(
          // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, blocks apart (textContent runs "blank" into "Page 3")
          () => (globalThis as any).document.body.innerText as string,
        );
        expect(Object.keys(messages).filter((key) => /[A-Z]/.test(key) && text.includes(key))).toEqual([]);
      }
      await page.goto(link);
      await expect.poll(() => page.getByTestId('order').textContent(), { timeout: 20_000 }).toBe('Bestellen');

      // Ordered: the order's total as German writes a price in euros, and its date.
      await placeOrder('german-order-1', id, 1234.56);
      await page.reload();
      await expect.poll(() => page.getByTestId('order-status').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByTestId('order-status').getByRole('heading').textContent()).toBe('Dein Buch ist bestellt');
      expect(await page.getByTestId('order-total').textContent()).toMatch(/^1\.234,56\s€$/);
      expect(await page.getByTestId('order-step').textContent()).toBe('Wartet auf die Zahlung');
      expect(await page.getByTestId('ordered-on').textContent()).toBe(
        new Intl.DateTimeFormat('de', { dateStyle: 'medium' }).format(new Date()),
      );
      expect(await page.getByTestId('project-status').textContent()).toBe('Bestellt');
    } finally {
      await page.close();
    }
  }, 120_000);

  it('says what Order did when opened directly, and opens an ordered book read-only with its order status', async () => {
    const auth = serviceHeader(shop.credentials.dev);
    const id = await editableProject(api, auth, {
      userId: 'honest-user',
      photos: [`${photos.url}/p3.jpg`, `${photos.url}/p4.jpg`, `${photos.url}/p5.jpg`],
    });
    const page = await context.newPage();
    try {
      // Opened directly (no shop's page around it): Order has nothing to send to, and says so.
      await page.goto(await currentEditorLink(api.url, auth, id));
      await expect
        .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
        .toBe('Ready to edit');
      await page.getByTestId('order').click();
      const outcome = page.getByTestId('order-outcome');
      await expect.poll(() => outcome.count()).toBe(1);
      expect(await outcome.getByRole('heading').textContent()).toBe('Nothing was ordered');
      expect(await outcome.textContent()).toContain('there is no shop to send your book to');
      expect(await page.getByText(/on its way to the cart/).count()).toBe(0);

      // Ordered: read-only, with the order's status; no edit control, no "Before you order".
      await placeOrder('honest-order-1', id, 34.99);
      await page.reload();
      await expect.poll(() => page.getByTestId('order-status').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByTestId('project-status').textContent()).toBe('Ordered');
      expect(await page.getByTestId('order-step').textContent()).toBe('Waiting for payment');
      expect(await page.getByTestId('order-step').getAttribute('data-status')).toBe('waiting');
      expect(await page.getByTestId('order-total').textContent()).toBe('€34.99');
      expect(await page.getByTestId('page-1').locator('[data-photo-id]').count()).toBeGreaterThan(0);
      expect(await page.locator('button, select, input, textarea, summary').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Before you order' }).count()).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      // The order status through GraphQL: the project's shop reads it; another shop finds no such project.
      const query = 'query ($id: String!) { project(id: $id) { order { status total currency quantity orderedAt } } }';
      const own = await graphqlAt(api.url, auth, query, { id });
      expect(own.data.project.order).toMatchObject({ status: 'waiting', total: 34.99, currency: 'EUR', quantity: 1 });
      const stranger = await api.createClient('Stranger shop');
      const foreign = await graphqlAt(api.url, serviceHeader(stranger.credentials.dev), query, { id });
      expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      // Before any order the field is null.
      const unordered = await editableProject(api, auth, { userId: 'honest-user-2' });
      expect((await graphqlAt(api.url, auth, query, { id: unordered })).data.project.order).toBeNull();
    } finally {
      await page.close();
    }
  }, 120_000);

  it('no page broke its Content-Security-Policy: every script, style, picture and socket of the editor and the dashboard was allowed', () => {
    expect(cspViolations.filter((text) => !text.includes('frame-ancestors'))).toEqual([]);
  });
});
