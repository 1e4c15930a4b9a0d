/**
 * No blank paper by accident (issue 35): a book whose photos all failed, or with fewer usable photos
 * than the product's `specifications.min.photos`, is refused alike by the preflight, `/v2/print` and its
 * `validateOnly`; the failed photos are named with their reasons over REST (preflight and project
 * status); a page an edit leaves blank is warned about over REST and in the editor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order } from '../../../src/db/entities';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../../support/browser';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { editableProject, printBody } from '../../support/print-fixtures';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

describe('no blank paper by accident', () => {
  let api: TestService;
  /** A shop with the demo catalogue as it is: every product needs at least 20 photos. */
  let demo: Record<string, string>;
  /** A shop whose products need no photo (the test harness's default). */
  let anyCount: Record<string, string>;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    demo = serviceHeader((await api.createClient('Demo minimum', { photoMinimum: 'demo' })).credentials.dev);
    anyCount = serviceHeader((await api.createClient('No minimum')).credentials.dev);
    const routes: Record<string, { body: Buffer }> = {};
    for (const [i, colour] of ['#c0392b', '#2980b9', '#27ae60'].entries()) {
      routes[`/ok-${i}.jpg`] = {
        body: await makePhoto({ width: 2600, height: 3500, colour, takenAt: `2024:07:0${i + 1} 10:00:00` }),
      };
    }
    // Every other path answers 404.
    photos = await startPhotoServer(routes);
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  const preflight = (id: string, auth: Record<string, string>) =>
    request(api.url, 'GET', `/v2/project/preflight?id=${id}`, { headers: auth });
  const status = (id: string, auth: Record<string, string>) =>
    request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth });
  const gql = async (auth: Record<string, string>, query: string, variables: Record<string, unknown>) => {
    const response = await post(api.url, '/graphql', { query, variables }, auth);
    expect(response.body.errors).toBeUndefined();
    return response.body.data;
  };

  it('all 10 photos failed (404): preflight blocks, naming each photo and why; /v2/print refuses NOT_PRINTABLE, validateOnly agrees, status names them', async () => {
    const urls = Array.from({ length: 10 }, (_, i) => photos.url(`/gone-${i}.jpg`));
    const projectId = await editableProject(api, demo, {
      userId: 'all-failed',
      photos: urls.map((url, i) => ({ id: `shop-photo-${i}`, url })),
    });

    const rest = await preflight(projectId, demo);
    expect(rest.status).toBe(200);
    expect(rest.body.printable).toBe(false);
    expect(rest.body.usablePhotos).toBe(0);
    expect(rest.body.problems.filter((p: { severity: string }) => p.severity === 'blocking')).toEqual([
      {
        code: 'NO_USABLE_PHOTO',
        severity: 'blocking',
        message: expect.stringMatching(/no photo that can be printed; PB-HC-A4-P needs at least 20; 10 photos failed/),
      },
    ]);
    expect(rest.body.failedPhotos).toHaveLength(10);
    rest.body.failedPhotos.forEach((photo: Record<string, unknown>, i: number) =>
      expect(photo).toEqual({
        id: expect.any(String),
        clientPhotoId: `shop-photo-${i}`,
        url: urls[i],
        problem: { code: 'HTTP_STATUS', message: expect.stringContaining('404') },
      }),
    );
    // The blank pages are warned about too: every page but the last (an end page).
    const blank = rest.body.problems.filter((p: { code: string }) => p.code === 'BLANK_PAGE');
    expect(blank.map((p: { page: number }) => p.page)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));

    // GraphQL says the same.
    const viaGraphql = await gql(
      demo,
      'query ($id: String!) { project(id: $id) { preflight { printable usablePhotos failedPhotos { id clientPhotoId url problem { code message } } } } }',
      { id: projectId },
    );
    expect(viaGraphql.project.preflight).toEqual({
      printable: false,
      usablePhotos: 0,
      failedPhotos: rest.body.failedPhotos,
    });

    // REST project status names them (the spec's fields unchanged).
    const state = await status(projectId, demo);
    expect(state.status).toBe(200);
    expect(state.body.status).toEqual({ photos: 'idle', project: 'editable' });
    expect(state.body.failedPhotos).toEqual(rest.body.failedPhotos);

    const body = printBody('all-failed-1', projectId);
    const validated = await post(api.url, '/v2/print', { ...body, validateOnly: true }, demo);
    expect(validated.status).toBe(200);
    expect(validated.body.valid).toBe(false);
    expect(validated.body.problems).toEqual([
      expect.objectContaining({ code: 'NOT_PRINTABLE', path: 'projects[0].id' }),
    ]);
    const refused = await post(api.url, '/v2/print', body, demo);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'NOT_PRINTABLE',
      errors: [{ path: 'projects[0].id', message: expect.stringContaining('(NO_USABLE_PHOTO)') }],
    });
    expect(await (await api.orm()).em.fork().count(Order, { orderId: 'all-failed-1' })).toBe(0);
  });

  it('fewer usable photos than the product’s min.photos: blocked; the same book of a product that needs none prints', async () => {
    const three = ['/ok-0.jpg', '/ok-1.jpg', '/ok-2.jpg'].map((p) => photos.url(p));
    const below = await editableProject(api, demo, { userId: 'too-few', photos: [...three, photos.url('/gone.jpg')] });
    const rest = await preflight(below, demo);
    expect(rest.body).toMatchObject({ printable: false, usablePhotos: 3 });
    expect(rest.body.failedPhotos.map((p: { url: string }) => p.url)).toEqual([photos.url('/gone.jpg')]);
    expect(rest.body.problems.filter((p: { severity: string }) => p.severity === 'blocking')).toEqual([
      {
        code: 'TOO_FEW_PHOTOS',
        severity: 'blocking',
        message: expect.stringContaining('the book has 3 photos that can be printed; PB-HC-A4-P needs at least 20'),
      },
    ]);
    const refused = await post(api.url, '/v2/print', printBody('too-few-1', below), demo);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'NOT_PRINTABLE',
      errors: [{ path: 'projects[0].id', message: expect.stringContaining('(TOO_FEW_PHOTOS)') }],
    });
    const validated = await post(api.url, '/v2/print', { ...printBody('too-few-1', below), validateOnly: true }, demo);
    expect(validated.body.valid).toBe(false);

    // The catalogue decides: a product whose min.photos is 0 prints the same three photos (with warnings).
    const free = await editableProject(api, anyCount, { userId: 'no-minimum', photos: three });
    const allowed = await preflight(free, anyCount);
    expect(allowed.body).toMatchObject({ printable: true, usablePhotos: 3, failedPhotos: [] });
    expect(
      (await post(api.url, '/v2/print', { ...printBody('free-1', free), validateOnly: true }, anyCount)).body,
    ).toEqual({ valid: true, problems: [] });
    // Another shop's project is not found, failed photos and all.
    expect((await preflight(below, anyCount)).status).toBe(404);
    expect((await status(below, anyCount)).status).toBe(404);
  });

  /** A three-photo book of a shop without a minimum, whose page 2 an edit left blank mid-book. */
  async function bookWithPage2LeftBlank(userId: string): Promise<{ projectId: string; editorUrl: string }> {
    const three = ['/ok-0.jpg', '/ok-1.jpg', '/ok-2.jpg'].map((p) => photos.url(p));
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId,
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        photos: three,
        custom: { title: 'Blank pages', subtitle: 'Ein Sommer' },
      },
      anyCount,
    );
    const projectId = new URL(generated.body.url).searchParams.get('id')!;
    await expect
      .poll(async () => (await status(projectId, anyCount)).body.status?.project, { timeout: 60_000 })
      .toBe('editable');
    // Three photos on pages 1-3; the builder's padding (4-23) is warned about, the end page (24) is not.
    expect(await blankPages(projectId)).toEqual(Array.from({ length: 20 }, (_, i) => i + 4));
    // The customer makes room on page 1 and moves page 2's photo there: page 2 is blank mid-book.
    await setLayout(projectId, 1, 'two-side-by-side');
    await gql(
      anyCount,
      'mutation ($projectId: String!) { movePhoto(projectId: $projectId, from: { page: 2, slot: 0 }, toPage: 1) { id } }',
      { projectId },
    );
    return { projectId, editorUrl: generated.body.url };
  }
  const blankPages = async (projectId: string) =>
    (await preflight(projectId, anyCount)).body.problems
      .filter((p: { code: string }) => p.code === 'BLANK_PAGE')
      .map((p: { page: number }) => p.page);
  const setLayout = (projectId: string, page: number, layout: string) =>
    gql(
      anyCount,
      'mutation ($projectId: String!, $page: Int!, $layout: String!) { setPageLayout(projectId: $projectId, page: $page, layout: $layout) { id } }',
      { projectId, page, layout },
    );

  it('a blank page an edit leaves mid-book is warned about over REST; a page chosen blank is not', async () => {
    const { projectId } = await bookWithPage2LeftBlank('rest-blank');
    expect((await blankPages(projectId)).slice(0, 2)).toEqual([2, 4]);
    const warning = (await preflight(projectId, anyCount)).body.problems.find(
      (p: { code: string; page: number }) => p.code === 'BLANK_PAGE' && p.page === 2,
    );
    expect(warning).toEqual({
      code: 'BLANK_PAGE',
      severity: 'warning',
      page: 2,
      message: expect.stringContaining('page 2 has no photo and no text and prints blank'),
    });
    // Chosen blank in the editor: deliberate, no warning for it.
    await setLayout(projectId, 2, 'blank');
    expect(await blankPages(projectId)).not.toContain(2);
  }, 120_000);

  it.skipIf(!browserAvailable)(
    'the editor shows the blank-page warning on the page and in its list, and sets texts in the shipped fonts',
    async () => {
      const { editorUrl } = await bookWithPage2LeftBlank('editor-blank');
      const browser = await launchBrowser();
      try {
        const page = await browser.context.newPage();
        const fontAnswers: number[] = [];
        page.on('response', (response) => {
          if (response.url().includes('/web/fonts/')) fontAnswers.push(response.status());
        });
        await page.goto(editorUrl);
        await expect
          .poll(() => page.getByTestId('project-status').textContent(), { timeout: 20_000 })
          .toBe('Ready to edit');
        const list = page.getByRole('region', { name: 'Before you order' });
        expect(await list.getByRole('heading').textContent()).toBe('Before you order: worth a look');
        const blankLines = list.locator('[data-code="BLANK_PAGE"]');
        // Page 2 alone (page 3 has its photo), then the builder's spare pages as one line.
        expect(await blankLines.allTextContents()).toEqual([
          // Each line starts with its severity as a word ("Check": a warning, not a blocking problem).
          expect.stringMatching(/Check\s*Page 2: this page has no photo and no text and prints blank/),
          expect.stringMatching(/Check\s*Pages 4–23: these 20 pages have no photo and no text and print blank/),
        ]);
        expect(await page.getByTestId('blank-warning-2').textContent()).toMatch(/Prints blank$/);
        expect(await page.getByTestId('blank-warning-1').count()).toBe(0);
        expect(await page.getByTestId('blank-warning-24').count()).toBe(0);
        // Warnings do not block the order.
        expect(await page.getByTestId('order').isDisabled()).toBe(false);
        // The book's texts are set in the faces the print uses, loaded from the service.
        const loaded = await page.evaluate(
          `document.fonts.ready.then(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replaceAll('"', '')))`,
        );
        expect(new Set(loaded as string[])).toEqual(new Set(['Lora', 'Source Sans 3']));
        expect(fontAnswers.length).toBeGreaterThan(0);
        expect(fontAnswers.every((code) => code === 200)).toBe(true);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it.skipIf(!browserAvailable)(
    'the editor disables Order and says why when every photo failed',
    async () => {
      const generated = await post(
        api.url,
        '/v2/generate',
        {
          userId: 'editor-failed',
          sku: 'PB-HC-A4-P',
          psp: 'local',
          marketId: 0,
          photos: [photos.url('/gone-a.jpg'), photos.url('/gone-b.jpg')],
        },
        demo,
      );
      const browser = await launchBrowser();
      try {
        const page = await browser.context.newPage();
        await page.goto(generated.body.url);
        await expect
          .poll(() => page.getByTestId('project-status').textContent(), { timeout: 60_000 })
          .toBe('Ready to edit');
        const order = page.getByTestId('order');
        expect(await order.isDisabled()).toBe(true);
        expect(await order.textContent()).toBe('Cannot order: no photo can be printed');
        expect(await page.getByRole('region', { name: 'Photos that could not be used' }).textContent()).toContain(
          '2 photos could not be used',
        );
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it('serves the shipped font files to the editor, and nothing else under /web/fonts/', async () => {
    const font = await fetch(`${api.url}/web/fonts/Lora_400Regular.ttf`);
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/ttf');
    const bytes = Buffer.from(await font.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe('00010000'); // a TrueType font
    for (const name of ['fonts.conf', '..%2Fpackage.json', 'constructor', 'DejaVuSans.ttf'])
      expect((await fetch(`${api.url}/web/fonts/${name}`)).status, name).toBe(404);
  });
});
