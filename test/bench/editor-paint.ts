/**
 * The editor as a phone opens it: Debian's Chromium (playwright-core, test/support/browser.ts's
 * settings) at 390 x 844 CSS px (3x device pixels, touch), its CPU throttled 4x through CDP
 * (`Emulation.setCPUThrottlingRate`), loading the editor link (`link` of `project/list`, with its
 * key) of a project made through the API (real-projects.ts: 4 photos, built, preview rendered) from
 * a service started by `npm start`, cold (a fresh browser profile each load) over loopback (no
 * network throttling: the figure is the page's own work, not a mobile network's).
 *
 * From Chromium's performance timeline: first paint and first contentful paint (`paint` entries);
 * "book drawn", when page 1's first photo is in the DOM and its image has loaded; and "interactive",
 * the later of the book drawn and the end of the last long task (`longtask` entries, > 50 ms of main
 * thread) before a quiet second: when a tap is answered at once (Lighthouse's TTI, simplified).
 *
 * Floor: the least work that shows the same first page: a static HTML page (bare node:http) with
 * the editor's stylesheet and page 1's images (the same signed /files URLs) and no script, loaded
 * the same way; it is interactive once loaded.
 *
 * Run: `npx tsx test/bench/editor-paint.ts` (BENCH_LOADS, default 5, cold loads a side, interleaved).
 * Prints `key value` lines read by run.ts; asserts nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { median, startProject } from './bench-env';
import { dropRealProjects, realProjects } from './real-projects';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';

const LOADS = Number(process.env.BENCH_LOADS ?? 5);

interface Timeline {
  firstPaint: number;
  firstContentfulPaint: number;
  bookDrawn: number;
  interactive: number;
  longTasks: number;
}

/** Records long tasks and when page 1's first photo is shown, from the first script the page runs. */
const OBSERVE = `(() => {
  const w = window;
  // tsx names the functions page.evaluate is given with esbuild's helper, which the page lacks.
  w.__name = w.__name || ((target) => target);
  w.__bench = { longTasks: [], bookDrawn: 0 };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__bench.longTasks.push([e.startTime, e.startTime + e.duration]); })
    .observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (w.__bench.bookDrawn) return;
    const img = document.querySelector(w.__benchSelector || '[data-testid="page-1"] [data-photo-id] img');
    if (img && img.complete && img.naturalWidth > 0) w.__bench.bookDrawn = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('load', check, true);
})();`;

async function measure(url: string, selector: string): Promise<{ timeline: Timeline; images: string[] }> {
  const browser = await launchBrowser();
  try {
    const context: BrowserContext = browser.context;
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 390,
      height: 844,
      deviceScaleFactor: 3,
      mobile: true,
    });
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    await page.addInitScript(`window.__benchSelector = ${JSON.stringify(selector)}; ${OBSERVE}`);
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction(() => (globalThis as any).__bench.bookDrawn > 0, undefined, {
      timeout: 120_000,
      polling: 100,
    });
    // A quiet second after the book is drawn: no long task ends within it.
    while (
      !(await page.evaluate(() => {
        const b = (globalThis as any).__bench as { longTasks: [number, number][]; bookDrawn: number };
        return performance.now() - Math.max(b.bookDrawn, ...b.longTasks.map((t) => t[1])) > 1000;
      }))
    )
      await new Promise((resolve) => setTimeout(resolve, 250));
    const result = await page.evaluate((sel) => {
      const b = (globalThis as any).__bench as { longTasks: [number, number][]; bookDrawn: number };
      const doc = (globalThis as any).document;
      const pageOne = doc.querySelector(sel)?.closest('[data-testid="page-1"]') ?? doc;
      return {
        timeline: {
          firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime ?? Number.NaN,
          firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
          bookDrawn: b.bookDrawn,
          interactive: Math.max(b.bookDrawn, ...b.longTasks.map((t) => t[1])),
          longTasks: b.longTasks.length,
        },
        images: [...pageOne.querySelectorAll('img')].map((img: any) => img.src as string),
      };
    }, selector);
    return result;
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!browserAvailable) {
    console.log(`skipped ${NO_BROWSER_REASON}`);
    return;
  }
  const real = await realProjects('photobook_bench_editor', 10, 101);
  const service = await startProject({ databaseUrl: real.databaseUrl, dataDir: real.dataDir });
  let floor: http.Server | undefined;
  try {
    const response = await fetch(`${service.url}/v2/project/list?user=bench-user-1`, {
      headers: { 'x-service': real.client.header },
    });
    const listed = (await response.json()) as { data: { link: string; status: { project: string } }[] };
    const link = listed.data.find((p) => p.status.project === 'editable')!.link;
    // The first load tells the floor which images page 1 shows.
    const first = await measure(link, '[data-testid="page-1"] [data-photo-id] img');
    const images = first.images;
    const floorHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Photobook editor</title><link rel="stylesheet" href="${service.url}/web/app/style.css"></head><body><main><section data-testid="page-1"><div class="page">${images.map((src, i) => `<figure data-photo-id="p${i}"><img src="${src}" alt=""></figure>`).join('')}</div></section></main></body></html>`;
    floor = http.createServer((_request, reply) => {
      reply.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(floorHtml);
    });
    await new Promise<void>((resolve) => floor!.listen(0, '127.0.0.1', resolve));
    const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`;
    const ours: Timeline[] = [];
    const bare: Timeline[] = [];
    for (let i = 0; i < LOADS; i++) {
      ours.push((await measure(link, '[data-testid="page-1"] [data-photo-id] img')).timeline);
      bare.push((await measure(floorUrl, '[data-testid="page-1"] [data-photo-id] img')).timeline);
    }
    const med = (side: Timeline[], key: keyof Timeline) => median(side.map((t) => t[key])).toFixed(0);
    console.log(`loads ${LOADS}`);
    console.log(`page-1 images ${images.length}`);
    for (const [name, side] of [
      ['editor', ours],
      ['floor', bare],
    ] as const) {
      for (const key of ['firstPaint', 'firstContentfulPaint', 'bookDrawn', 'interactive', 'longTasks'] as const)
        console.log(`${name} ${key} ${med(side, key)}`);
    }
  } finally {
    floor?.close();
    await service.stop();
    await dropRealProjects(real);
  }
}

await main();
