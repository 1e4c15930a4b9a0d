import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityViolations } from '../support/axe';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

/** The check the browser tests rely on finds what it is there to find (a check that cannot fail proves nothing). */
describe.skipIf(!browserAvailable)('the axe-core check of the browser tests', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('names a faint text and a button without a name, and nothing on a page without them', async () => {
    const page = await browser.context.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><body><main><p style="color:#c8c8c8;background:#fff">faint</p><button type="button"></button></main></body></html>',
    );
    const found = await seriousAccessibilityViolations(page);
    expect(found.map((line) => line.split(' ')[0]).sort()).toEqual(['button-name', 'color-contrast']);
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><body><main><p>clear</p><button type="button">Go</button></main></body></html>',
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);
});
