import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import {
  editorConnectionParams,
  editorCredentialsOf,
  editorHeaders,
  type EditorCredentials,
} from '../../support/editor-link';

const BOOK = `id title status { project } format { widthMm heightMm minPages maxPages }
  photos { id status thumbnail width height }
  cover { title subtitle photoId texts { assetId text } }
  pages { number layout photos { photoId x y width height } }
  printWarnings { page photoId effectiveDpi message }`;

describe('the editor session and its book edits over GraphQL', () => {
  let api: TestService;
  let client: IssuedClient;
  let photos: PhotoServer;
  let projectId: string;
  let link: EditorCredentials;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    client = await api.createClient('Editor shop');
    photos = await startPhotoServer({
      '/1.jpg': { body: await makePhoto({ width: 2400, height: 1700, takenAt: '2024:05:01 10:00:00' }) },
      '/2.jpg': { body: await makePhoto({ width: 2400, height: 1700, takenAt: '2024:05:02 10:00:00' }) },
      '/3.jpg': { body: await makePhoto({ width: 2400, height: 1700, takenAt: '2024:05:03 10:00:00' }) },
      // 320 px over a full A4 landscape page is far below print resolution.
      '/small.jpg': { body: await makePhoto({ width: 320, height: 240, takenAt: '2024:05:04 10:00:00' }) },
    });
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'editor-user',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        photos: ['/1.jpg', '/2.jpg', '/3.jpg', '/small.jpg', '/missing.jpg'].map((p) => photos.url(p)),
      },
      serviceHeader(client.credentials.dev),
    );
    expect(generated.status).toBe(200);
    link = editorCredentialsOf(generated.body.url);
    projectId = link.projectId;
    await waitFor(
      async () =>
        (await editor(`query ($id: String!) { project(id: $id) { status { project } } }`, { id: projectId })).data
          ?.project.status.project === 'editable',
      30_000,
      'the project to be editable',
    );
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  async function editor(query: string, variables: Record<string, unknown> = {}, session = link) {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...editorHeaders(session) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
  }
  const book = async () =>
    (await editor(`query ($id: String!) { project(id: $id) { ${BOOK} } }`, { id: projectId })).data!.project;
  /** The book as stored: file URLs without their signature, which is made afresh (with a new expiry) on every read. */
  const storedBook = async () => {
    const project = await book();
    return {
      ...project,
      photos: project.photos.map((photo: any) => ({ ...photo, thumbnail: photo.thumbnail?.split('?')[0] ?? null })),
    };
  };

  it("opens with the link's project id: the book at its format, thumbnails, the photo that could not be downloaded, and the one too small to print", async () => {
    const project = await book();
    expect(project.format).toEqual({ widthMm: 297, heightMm: 210, minPages: 24, maxPages: 120 });
    expect(project.pages).toHaveLength(24);
    expect(project.photos.filter((p: any) => p.status === 'failed')).toHaveLength(1);
    const thumbnail = project.photos.find((p: any) => p.status === 'idle').thumbnail;
    expect((await fetch(thumbnail)).headers.get('content-type')).toBe('image/jpeg');
    const small = project.photos.find((p: any) => p.width === 320);
    // 2400 px across a full A4 landscape page is 233 DPI (soft); 320 px is 31 DPI (pixelated).
    expect(project.printWarnings.filter((w: any) => w.message.startsWith('low resolution'))).toEqual([
      expect.objectContaining({ photoId: small.id, effectiveDpi: 31 }),
    ]);
    expect(project.printWarnings.filter((w: any) => w.message.startsWith('may look soft'))).toHaveLength(3);
  });

  it('saves each edit: page order, a swap, a layout, cover texts, pages added and removed, and a reload sees them', async () => {
    const before = await book();
    const [p1, p2] = [before.pages[0].photos[0].photoId, before.pages[1].photos[0].photoId];
    const moved = await editor(
      `mutation ($id: String!) { movePage(projectId: $id, from: 1, to: 2) { pages { number photos { photoId } } } }`,
      { id: projectId },
    );
    expect(moved.errors).toBeUndefined();
    expect(moved.data.movePage.pages.slice(0, 2).map((p: any) => p.photos[0].photoId)).toEqual([p2, p1]);

    const swapped = await editor(
      `mutation ($id: String!) { swapPhotos(projectId: $id, a: { page: 1, slot: 0 }, b: { page: 3, slot: 0 }) { pages { photos { photoId } } } }`,
      { id: projectId },
    );
    expect(swapped.errors).toBeUndefined();
    expect(swapped.data.swapPhotos.pages[2].photos[0].photoId).toBe(p2);

    const relaid = await editor(
      `mutation ($id: String!) { setPageLayout(projectId: $id, page: 2, layout: "grid-4") { pages { number layout photos { photoId width } } } }`,
      { id: projectId },
    );
    expect(relaid.data.setPageLayout.pages[1]).toMatchObject({
      layout: 'grid-4',
      photos: [{ photoId: p1, width: expect.any(Number) }],
    });
    expect(relaid.data.setPageLayout.pages[1].photos[0].width).toBeLessThan(0.5);

    const titled = await editor(
      `mutation ($id: String!) { setCoverTexts(projectId: $id, title: "  Our spring  ", subtitle: "May 2024") { title cover { title subtitle } endUserId product { marketId } } }`,
      { id: projectId },
    );
    // The answer is a whole Project: fields read through its relations resolve too (found by the fuzzer).
    expect(titled.data.setCoverTexts).toEqual({
      title: 'Our spring',
      cover: { title: 'Our spring', subtitle: 'May 2024' },
      endUserId: expect.any(String),
      product: { marketId: expect.any(Number) },
    });

    const added = await editor(
      `mutation ($id: String!) { addPages(projectId: $id, after: 24) { pages { number layout } } }`,
      { id: projectId },
    );
    expect(added.data.addPages.pages).toHaveLength(26);
    const removed = await editor(
      `mutation ($id: String!) { removePages(projectId: $id, pages: [25, 26]) { pages { number } } }`,
      { id: projectId },
    );
    expect(removed.data.removePages.pages).toHaveLength(24);

    const reloaded = await book();
    expect(reloaded.cover).toMatchObject({ title: 'Our spring', subtitle: 'May 2024' });
    expect(reloaded.pages[1]).toMatchObject({ layout: 'grid-4', photos: [{ photoId: p1 }] });
    expect(reloaded.pages[2].photos[0].photoId).toBe(p2);
  });

  it('applies edits sent at the same time one after the other, losing none', async () => {
    const before = (await book()).pages.map((p: any) => p.photos[0]?.photoId ?? `blank-${p.number}`);
    // Pages 1 to 4 hold photos (the rest are blank): a lost update would show in them.
    const moves = [
      [1, 2],
      [3, 4],
    ];
    expect(before.slice(0, 4).every((id: string) => !id.startsWith('blank'))).toBe(true);
    const answers = await Promise.all(
      moves.map(([from, to]) =>
        editor(
          `mutation ($id: String!, $from: Int!, $to: Int!) { movePage(projectId: $id, from: $from, to: $to) { id } }`,
          { id: projectId, from, to },
        ),
      ),
    );
    expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
    const after = (await book()).pages.map((p: any) => p.photos[0]?.photoId ?? `blank-${p.number}`);
    const expected = [...before];
    for (const [from, to] of moves) [expected[from - 1], expected[to - 1]] = [expected[to - 1], expected[from - 1]];
    expect(after.slice(0, 4)).toEqual(expected.slice(0, 4));
    await Promise.all(
      moves.map(([from, to]) =>
        editor(
          `mutation ($id: String!, $from: Int!, $to: Int!) { movePage(projectId: $id, from: $from, to: $to) { id } }`,
          { id: projectId, from: to, to: from },
        ),
      ),
    );
  });

  it("refuses edits that break the product's rules, naming the field, and changes nothing", async () => {
    const before = await storedBook();
    const odd = await editor(`mutation ($id: String!) { removePages(projectId: $id, pages: [3]) { id } }`, {
      id: projectId,
    });
    expect(odd.errors![0].extensions).toMatchObject({ code: 'ODD_PAGE_COUNT', errors: [{ path: 'pages' }] });
    const belowMinimum = await editor(`mutation ($id: String!) { removePages(projectId: $id, pages: [3, 4]) { id } }`, {
      id: projectId,
    });
    expect(belowMinimum.errors![0].extensions).toMatchObject({ code: 'PAGE_LIMIT', errors: [{ path: 'pages' }] });
    const noPage = await editor(`mutation ($id: String!) { movePage(projectId: $id, from: 1, to: 99) { id } }`, {
      id: projectId,
    });
    expect(noPage.errors![0].extensions).toMatchObject({ code: 'NO_SUCH_PAGE', errors: [{ path: 'to' }] });
    const tooSmall = await editor(
      `mutation ($id: String!) { setPageLayout(projectId: $id, page: 2, layout: "nine-up") { id } }`,
      { id: projectId },
    );
    expect(tooSmall.errors![0].extensions).toMatchObject({ code: 'UNKNOWN_LAYOUT', errors: [{ path: 'layout' }] });
    const emptyTitle = await editor(`mutation ($id: String!) { setCoverTexts(projectId: $id, title: "   ") { id } }`, {
      id: projectId,
    });
    expect(emptyTitle.errors![0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'title' }] });
    expect(await storedBook()).toEqual(before);
  });

  it('moves a photo to a page with room, closing the gap it leaves, and refuses a full page', async () => {
    const before = await book();
    const moving = before.pages[2].photos[0].photoId;
    expect(before.pages[1].layout).toBe('grid-4');
    const moved = await editor(
      `mutation ($id: String!) { movePhoto(projectId: $id, from: { page: 3, slot: 0 }, toPage: 2) { pages { number layout photos { photoId } } } }`,
      { id: projectId },
    );
    expect(moved.errors).toBeUndefined();
    expect(moved.data.movePhoto.pages[1].photos.map((p: any) => p.photoId)).toEqual([
      before.pages[1].photos[0].photoId,
      moving,
    ]);
    expect(moved.data.movePhoto.pages[2]).toEqual({ number: 3, layout: 'blank', photos: [] });

    const onBlank = await editor(
      `mutation ($id: String!) { movePhoto(projectId: $id, from: { page: 2, slot: 1 }, toPage: 3) { pages { layout photos { photoId } } } }`,
      { id: projectId },
    );
    expect(onBlank.data.movePhoto.pages[2]).toEqual({ layout: 'full', photos: [{ photoId: moving }] });
    const full = await editor(
      `mutation ($id: String!) { movePhoto(projectId: $id, from: { page: 2, slot: 0 }, toPage: 3) { id } }`,
      { id: projectId },
    );
    expect(full.errors![0].extensions).toMatchObject({ code: 'PAGE_FULL', errors: [{ path: 'toPage' }] });
  });

  it("an editor session reaches its own project only: other operations need the client's credentials, other ids are not found", async () => {
    const orders = await editor('query { orders(first: 1) { pageInfo { hasNextPage } } }');
    expect(orders.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    const list = await editor('query { projects(user: "editor-user") { edges { node { id } } } }');
    expect(list.errors![0].extensions!.code).toBe('UNAUTHENTICATED');

    const other = await post(
      api.url,
      '/v2/generate',
      { userId: 'editor-user', sku: 'PB-HC-A4-L', psp: 'local', marketId: 0 },
      serviceHeader(client.credentials.dev),
    );
    const otherId = new URL(other.body.url).searchParams.get('id')!;
    const foreign = await editor(
      `mutation ($id: String!) { setCoverTexts(projectId: $id, title: "Mine now") { id } }`,
      { id: otherId },
    );
    expect(foreign.errors![0].extensions!.code).toBe('NOT_FOUND');
    const unknown = await editor(
      `query ($id: String!) { project(id: $id) { id } }`,
      { id: projectId },
      { ...link, projectId: 'p-AAAAAAAAAAAAAAAAAAAAAAAA' },
    );
    expect(unknown.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    // Another project's key opens neither project, nor does this project's id alone.
    const otherKey = await editor(
      `query ($id: String!) { project(id: $id) { id } }`,
      { id: projectId },
      { projectId, editorKey: editorCredentialsOf(other.body.url).editorKey },
    );
    expect(otherKey.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    const crossed = await editor(
      `query ($id: String!) { project(id: $id) { id } }`,
      { id: otherId },
      { projectId: otherId, editorKey: link.editorKey },
    );
    expect(crossed.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    const idAlone = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-editor-project': projectId },
      body: JSON.stringify({ query: `query ($id: String!) { project(id: $id) { id } }`, variables: { id: projectId } }),
    });
    expect(idAlone.status).toBe(401);
  });

  it("streams the project's status over graphql-ws with the editor session, and refuses a socket with an unknown project", async () => {
    const ws = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: editorConnectionParams(link),
      retryAttempts: 0,
    });
    const first = new Promise<any>((resolve, reject) => {
      ws.subscribe(
        {
          query: `subscription ($id: String) { projectStatusChanged(projectId: $id) { projectId status { project } } }`,
          variables: { id: projectId },
        },
        { next: resolve, error: reject, complete: () => {} },
      );
    });
    // A status change of this project: ordering is the next one an editable project can make.
    await new Promise((r) => setTimeout(r, 300));
    const orm = await api.orm();
    const { recordStatusChange } = await import('../../../src/events/status-event-log');
    await orm.em.fork().transactional((tx) =>
      recordStatusChange(
        tx,
        { clientId: client.clientId, env: 'dev' },
        {
          subjectType: 'project',
          subjectId: projectId,
          status: 'editable',
          detail: { photos: 'idle', user: 'editor-user' },
        },
      ),
    );
    expect((await first).data.projectStatusChanged).toMatchObject({ projectId, status: { project: 'editable' } });
    await ws.dispose();

    const refused = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { ...editorConnectionParams(link), editorProject: 'p-nope' },
      retryAttempts: 0,
    });
    const closed = await new Promise<any>((resolve) => {
      refused.subscribe(
        { query: `subscription { projectStatusChanged(projectId: "x") { projectId } }` },
        { next: () => {}, error: resolve, complete: () => {} },
      );
    });
    expect(closed.code).toBe(4403);
    await refused.dispose();
  });

  it("an editor socket subscribed to a client-wide feed gets errors, never another subject's events", async () => {
    const ws = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: editorConnectionParams(link),
      retryAttempts: 0,
    });
    const answers: any[] = [];
    ws.subscribe(
      { query: 'subscription { statusEvents { subjectId status } }' },
      { next: (m) => answers.push(m), error: (e) => answers.push({ error: e }), complete: () => {} },
    );
    await new Promise((r) => setTimeout(r, 300));
    const orm = await api.orm();
    const { recordStatusChange } = await import('../../../src/events/status-event-log');
    await orm.em.fork().transactional((tx) =>
      recordStatusChange(
        tx,
        { clientId: client.clientId, env: 'dev' },
        {
          subjectType: 'project',
          subjectId: 'p-another0000000000000000',
          status: 'building',
          detail: { photos: 'none', user: 'someone' },
        },
      ),
    );
    await waitFor(async () => answers.length > 0, 10_000, 'an answer on the editor socket');
    expect(JSON.stringify(answers)).not.toContain('p-another');
    expect(answers[0].errors?.[0]?.extensions?.code ?? answers[0].error?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await ws.dispose();
  });
});
