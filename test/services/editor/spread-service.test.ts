import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { editorCredentialsOf, editorHeaders, type EditorCredentials } from '../../support/editor-link';
import { faceOnLandscape } from '../../support/face-photos';

const STATE = `bookRevision pages { number layout photos { photoId x width } } printWarnings { page photoId effectiveDpi }`;

/**
 * Spreads over the real service: GraphQL setPageLayout and its REST and GraphQL neighbours on a
 * layflat project (PB-LF-30-S, 300 mm square) and a hardcover one (PB-HC-A4-L).
 */
describe('spreads through the editor (GraphQL and REST)', () => {
  let api: TestService;
  let client: IssuedClient;
  let photos: PhotoServer;
  let layflat: EditorCredentials;
  let hardcover: EditorCredentials;

  async function generate(sku: string): Promise<EditorCredentials> {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'spread-user',
        sku,
        psp: sku === 'PB-LF-30-S' ? 'printhub' : 'local',
        marketId: 0,
        layoutType: 'fastbook',
        photos: ['/1.jpg', '/2.jpg', '/3.jpg'].map((p) => photos.url(p)),
      },
      serviceHeader(client.credentials.dev),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const link = editorCredentialsOf(generated.body.url);
    await waitFor(async () => (await state(link))?.pages?.length > 0, 30_000, `the ${sku} project to be editable`);
    return link;
  }

  async function graphql(link: EditorCredentials, query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...editorHeaders(link) },
      body: JSON.stringify({ query, variables: { id: link.projectId, ...variables } }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
  }
  const state = async (link: EditorCredentials) =>
    (await graphql(link, `query ($id: String!) { project(id: $id) { ${STATE} } }`)).data?.project;
  const setLayout = (link: EditorCredentials, page: number, layout: string) =>
    graphql(
      link,
      `mutation ($id: String!, $page: Int!, $layout: String!) { setPageLayout(projectId: $id, page: $page, layout: $layout) { ${STATE} } }`,
      {
        page,
        layout,
      },
    );
  const layouts = (book: any) => book.pages.map((p: any) => p.layout).slice(0, 4);

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    client = await api.createClient('Spread shop');
    photos = await startPhotoServer({
      '/1.jpg': { body: await makePhoto({ width: 3000, height: 1500, takenAt: '2024:05:01 10:00:00' }) },
      '/2.jpg': { body: await makePhoto({ width: 3000, height: 1500, takenAt: '2024:05:02 10:00:00' }) },
      '/3.jpg': { body: await makePhoto({ width: 3000, height: 1500, takenAt: '2024:05:03 10:00:00' }) },
      // A real face (face-api's demo photo) in the middle of a photo as wide as the opening.
      '/face.jpg': {
        body: (
          await faceOnLandscape({ width: 3000, height: 1500, index: 0, faceHeight: 300, faceLeft: 1400, faceTop: 500 })
        ).photo,
      },
    });
    layflat = await generate('PB-LF-30-S');
    hardcover = await generate('PB-HC-A4-L');
  }, 120_000);
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it('refuses a spread on a hardcover product, on a right-hand page and over a page with photos, naming the field and changing nothing', async () => {
    const before = await state(hardcover);
    const notLayflat = await setLayout(hardcover, 2, 'spread');
    expect(notLayflat.errors![0].extensions).toMatchObject({
      code: 'SPREAD_NEEDS_LAYFLAT',
      errors: [{ path: 'layout' }],
    });
    expect(await state(hardcover)).toEqual(before);

    const flatBefore = await state(layflat);
    const right = await setLayout(layflat, 3, 'spread');
    expect(right.errors![0].extensions).toMatchObject({ code: 'SPREAD_ON_RIGHT_PAGE', errors: [{ path: 'page' }] });
    // Pages 2 and 3 both hold a photo (a fastbook of one photo a page).
    const facing = await setLayout(layflat, 2, 'spread');
    expect(facing.errors![0].extensions).toMatchObject({
      code: 'SPREAD_NEEDS_FACING_PAGE',
      errors: [{ path: 'page' }],
    });
    expect(await state(layflat)).toEqual(flatBefore);
  });

  it('sets a spread on a layflat book, keeps its halves together through REST and GraphQL edits, undo and redo', async () => {
    // Free page 3: its photo leaves the book (REST).
    const out = await post(
      api.url,
      '/v2/project/book/unplace',
      { id: layflat.projectId, slot: { page: 3, slot: 0 } },
      editorHeaders(layflat),
    );
    expect(out.status).toBe(200);
    const spread = await setLayout(layflat, 2, 'spread');
    expect(spread.errors).toBeUndefined();
    const book = spread.data.setPageLayout;
    expect(layouts(book)).toEqual(['full', 'spread', 'spread', 'blank']);
    expect(book.pages[1].photos).toEqual([{ photoId: expect.any(String), x: 0, width: 2 }]);
    expect(book.pages[2].photos).toEqual([]);
    // 3000 px across 600 mm: 127 DPI, the spread's print size (a single page would give 254).
    expect(book.printWarnings.find((w: any) => w.page === '2')).toMatchObject({ effectiveDpi: 127 });

    // The right half takes no photo and no layout of its own (REST and GraphQL).
    const onto = await post(
      api.url,
      '/v2/project/book/place',
      { id: layflat.projectId, photoId: book.pages[0].photos[0].photoId, toPage: 3 },
      editorHeaders(layflat),
    );
    expect([onto.status, onto.body.code, onto.body.errors[0].path]).toEqual([400, 'SPREAD_HALF', 'toPage']);
    const half = await setLayout(layflat, 3, 'full');
    expect(half.errors![0].extensions).toMatchObject({ code: 'SPREAD_HALF', errors: [{ path: 'page' }] });
    const split = await graphql(layflat, `mutation ($id: String!) { movePage(projectId: $id, from: 1, to: 4) { id } }`);
    expect(split.errors![0].extensions).toMatchObject({ code: 'SPREAD_SPLIT', errors: [{ path: 'to' }] });
    const addInside = await graphql(layflat, `mutation ($id: String!) { addPages(projectId: $id, after: 2) { id } }`);
    expect(addInside.errors![0].extensions).toMatchObject({ code: 'SPREAD_SPLIT', errors: [{ path: 'after' }] });
    expect(layouts(await state(layflat))).toEqual(['full', 'spread', 'spread', 'blank']);

    // Its photo taken out (REST): both pages go blank together; undo brings the spread back whole, redo takes it away again.
    const taken = await post(
      api.url,
      '/v2/project/book/unplace',
      { id: layflat.projectId, slot: { page: 2, slot: 0 } },
      editorHeaders(layflat),
    );
    expect(taken.status).toBe(200);
    expect(layouts(await state(layflat))).toEqual(['full', 'blank', 'blank', 'blank']);
    const undone = await graphql(layflat, `mutation ($id: String!) { undo(projectId: $id) { ${STATE} } }`);
    expect(layouts(undone.data.undo)).toEqual(['full', 'spread', 'spread', 'blank']);
    const redone = await graphql(layflat, `mutation ($id: String!) { redo(projectId: $id) { ${STATE} } }`);
    expect(layouts(redone.data.redo)).toEqual(['full', 'blank', 'blank', 'blank']);
  });

  it('warns FACE_ON_FOLD when a spread puts a face across the fold, and not once the photo is on one page', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'fold-user', sku: 'PB-LF-30-S', psp: 'printhub', marketId: 0, photos: [photos.url('/face.jpg')] },
      serviceHeader(client.credentials.dev),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const link = editorCredentialsOf(generated.body.url);
    await waitFor(async () => (await state(link))?.pages?.length > 0, 60_000, 'the face project to be editable');
    const problems = async () =>
      (
        await graphql(
          link,
          `query ($id: String!) { project(id: $id) { preflight { problems { code page slot severity } } } }`,
        )
      ).data.project.preflight.problems.filter((p: { code: string }) => p.code === 'FACE_ON_FOLD');
    expect(await problems()).toEqual([]);
    expect((await setLayout(link, 2, 'spread')).errors).toBeUndefined();
    const moved = await graphql(
      link,
      `mutation ($id: String!) { movePhoto(projectId: $id, from: { page: 1, slot: 0 }, toPage: 2) { ${STATE} } }`,
    );
    expect(moved.errors).toBeUndefined();
    expect(layouts(moved.data.movePhoto).slice(1, 3)).toEqual(['spread', 'spread']);
    expect(await problems()).toEqual([{ code: 'FACE_ON_FOLD', page: 2, slot: 0, severity: 'warning' }]);
    // Back on a single page (leaving the spread): nothing on a fold to warn of.
    expect((await setLayout(link, 2, 'full')).errors).toBeUndefined();
    expect(await problems()).toEqual([]);
  });

  it("another project's editor link cannot lay out this project's pages", async () => {
    const before = await state(layflat);
    const foreign = await graphql(
      hardcover,
      `mutation ($other: String!) { setPageLayout(projectId: $other, page: 2, layout: "spread") { id } }`,
      { other: layflat.projectId },
    );
    expect(foreign.errors).toBeDefined();
    expect(foreign.data?.setPageLayout ?? null).toBeNull();
    expect(await state(layflat)).toEqual(before);
  });
});
