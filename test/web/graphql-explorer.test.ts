import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { request, serviceHeader } from '../support/http';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import type { IssuedClient } from '../../src/services/clients/client-admin';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A random key, as NODE_ENV=production requires. */
const PRODUCTION_PEPPER = randomBytes(32).toString('base64');

/** What `npm start`'s prestart does for the explorer (a no-op when its stamp is current). */
function buildExplorer(): Promise<void> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['scripts/build-explorer.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build-explorer exited ${code}`)))),
  );
}

/** Replaces the text of one of GraphiQL's Monaco editors by pasting it, as an operator pastes credentials. */
async function replaceEditorText(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(`${editor} .monaco-editor`).first().click();
  await page.keyboard.press('Control+A');
  // A paste, not typing: typed brackets would be closed by the editor a second time.
  await page.evaluate((pasted) => {
    // The browser's globals: this project's TypeScript has no DOM library.
    const browser = globalThis as any;
    const clipboardData = new browser.DataTransfer();
    clipboardData.setData('text/plain', pasted);
    browser.document.activeElement.dispatchEvent(
      new browser.ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe('the GraphQL explorer served by the service', () => {
  let api: TestService;
  let client: IssuedClient;

  beforeAll(async () => {
    await buildExplorer();
    api = await startTestService();
    client = await api.createClient('Explorer shop');
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('a browser asking /graphql for HTML is sent to the explorer; its files come from this origin under a strict CSP', async () => {
    const browserGet = await fetch(`${api.url}/graphql`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
      redirect: 'manual',
    });
    expect(browserGet.status).toBe(302);
    expect(browserGet.headers.get('location')).toBe('/graphql/explorer');
    // A GraphQL client's GET is still GraphQL's (here: refused for want of credentials, in GraphQL's shape).
    const clientGet = await request(api.url, 'GET', '/graphql?query=%7B__typename%7D', {
      headers: { accept: 'application/json' },
    });
    expect(clientGet.status).toBe(401);
    expect(clientGet.body.errors[0].extensions.code).toBeDefined();

    const page = await request(api.url, 'GET', '/graphql/explorer');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("worker-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval|https?:\/\//);
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc="\/graphql\/explorer\/)/);
    for (const file of ['explorer.js', 'explorer.css', 'editor.worker.js', 'graphql.worker.js', 'json.worker.js']) {
      const asset = await fetch(`${api.url}/graphql/explorer/${file}`);
      expect(asset.status, file).toBe(200);
      await asset.arrayBuffer();
    }
    expect((await fetch(`${api.url}/graphql/explorer/stamp.txt`)).status).toBe(404);
  });

  it.skipIf(!browserAvailable)(
    'runs a query with the credentials pasted in its Headers tab, with no CSP violation or outside request',
    async () => {
      const browser = await launchBrowser();
      try {
        const page = await browser.context.newPage();
        const problems: string[] = [];
        const origins = new Set<string>();
        page.on('console', (message) => {
          // Failed answers are looked at below, by URL.
          if (/Failed to load resource/.test(message.text())) return;
          if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
            problems.push(message.text());
        });
        const failed: string[] = [];
        page.on('response', (answer) => {
          if (answer.status() >= 400) failed.push(`${answer.status()} ${new URL(answer.url()).pathname}`);
        });
        page.on('pageerror', (error) => problems.push(String(error)));
        page.on('request', (sent) => origins.add(new URL(sent.url()).origin));

        await page.goto(`${api.url}/graphql`);
        expect(new URL(page.url()).pathname).toBe('/graphql/explorer');
        await page.locator('.graphiql-query-editor .monaco-editor').first().waitFor({ timeout: 60_000 });

        const run = page.getByRole('button', { name: /Execute query/ });
        const response = page.locator('.graphiql-response');
        await replaceEditorText(page, '.graphiql-query-editor', '{ webhook { url } }');
        // Without credentials: the API's own refusal, shown as the result.
        await replaceEditorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', '{}');
        await run.click();
        await expect
          .poll(() => response.textContent(), { timeout: 30_000 })
          .toMatch(/UNAUTHENTICATED|UNAUTHORIZED|credential/i);

        await replaceEditorText(
          page,
          '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
          JSON.stringify(serviceHeader(client.credentials.dev)),
        );
        await run.click();
        await expect.poll(() => response.textContent(), { timeout: 30_000 }).toMatch(/"webhook":\s*null/);
        expect(await response.textContent()).not.toContain('errors');

        expect(problems).toEqual([]);
        expect(failed).toEqual(['401 /graphql']);
        expect([...origins]).toEqual([api.url]);
        // The picture for docs/operations.md shows the headers' shape, not this test's secret.
        await replaceEditorText(
          page,
          '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
          JSON.stringify(serviceHeader({ accessKey: 'ak_…', accessSecret: 's_…' }), null, 2),
        );
        await page.screenshot({ path: path.join(ROOT, 'docs/screenshots/graphql-explorer.png') });
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it.skipIf(browserAvailable)('runs in a real browser', () => {
    console.warn(NO_BROWSER_REASON);
  });
});

// After the describe above has stopped its service: one DBOS engine per process.
describe('the GraphQL explorer in production', () => {
  it("in production it is off unless GRAPHQL_EXPLORER=on: a 404, and a browser GET /graphql stays GraphQL's 401", async () => {
    const production = await startTestService({ NODE_ENV: 'production', CREDENTIAL_PEPPER: PRODUCTION_PEPPER });
    try {
      expect(
        (await request(production.url, 'GET', '/graphql/explorer', { headers: { accept: 'text/html' } })).status,
      ).toBe(404);
      expect((await request(production.url, 'GET', '/graphql/explorer/explorer.js')).status).toBe(404);
      expect((await request(production.url, 'GET', '/graphql', { headers: { accept: 'text/html' } })).status).toBe(401);
    } finally {
      await production.stop();
    }
    const enabled = await startTestService({
      NODE_ENV: 'production',
      CREDENTIAL_PEPPER: PRODUCTION_PEPPER,
      GRAPHQL_EXPLORER: 'on',
    });
    try {
      expect((await request(enabled.url, 'GET', '/graphql/explorer')).status).toBe(200);
    } finally {
      await enabled.stop();
    }
  }, 120_000);
});
