import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import {
  editorConnectionParams,
  editorCredentialsOf,
  editorHeaders,
  type EditorCredentials,
} from '../../support/editor-link';

const STATE = `bookRevision canUndo canRedo
  pages { number layout photos { photoId crop { x y zoom } cropRect { left top width height } } captions { text font sizePt x y width } }`;

describe('book revisions, undo and redo, crops and captions (GraphQL and REST)', () => {
  let api: TestService;
  let shop: IssuedClient;
  let otherShop: IssuedClient;
  let photos: PhotoServer;
  let link: EditorCredentials;
  let secondLink: EditorCredentials;
  const sockets: Client[] = [];

  async function generate(userId: string, credentials = shop.credentials.dev): Promise<EditorCredentials> {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId, sku: 'PB-HC-A4-L', psp: 'local', marketId: 0, photos: ['/1.jpg', '/2.jpg', '/3.jpg'].map(photos.url) },
      serviceHeader(credentials),
    );
    expect(generated.status).toBe(200);
    const credentialsOfLink = editorCredentialsOf(generated.body.url);
    await waitFor(
      async () => (await state(credentialsOfLink).catch(() => undefined))?.pages?.length > 0,
      30_000,
      'the book to be built',
    );
    return credentialsOfLink;
  }

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Revision shop');
    otherShop = await api.createClient('Other shop');
    photos = await startPhotoServer({
      // 1200 x 800 over a full A4 landscape page (11.7 in) is ~103 DPI: at zoom 4 far below the floor.
      '/1.jpg': { body: await makePhoto({ width: 1200, height: 800, takenAt: '2024:05:01 10:00:00' }) },
      '/2.jpg': { body: await makePhoto({ width: 2400, height: 1700, takenAt: '2024:05:02 10:00:00' }) },
      '/3.jpg': { body: await makePhoto({ width: 1700, height: 2400, takenAt: '2024:05:03 10:00:00' }) },
    });
    link = await generate('revision-user');
    secondLink = await generate('second-user');
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()));
    await photos?.close();
    await api?.stop();
  });

  async function graphql(query: string, variables: Record<string, unknown> = {}, session = link) {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...editorHeaders(session) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
  }
  async function state(session = link) {
    const answer = await graphql(
      `query ($id: String!) { project(id: $id) { ${STATE} } }`,
      { id: session.projectId },
      session,
    );
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data!.project;
  }
  const movePage = (expectedRevision?: number) =>
    graphql(
      `mutation ($id: String!, $rev: Int) { movePage(projectId: $id, from: 1, to: 2, expectedRevision: $rev) { ${STATE} } }`,
      { id: link.projectId, rev: expectedRevision },
    );

  it('an edit on the latest revision makes the next; one on a stale revision is refused with the current one and writes nothing', async () => {
    const before = await state();
    const moved = await movePage(before.bookRevision);
    expect(moved.errors).toBeUndefined();
    expect(moved.data.movePage.bookRevision).toBe(before.bookRevision + 1);
    expect(moved.data.movePage.canUndo).toBe(true);

    // A second tab still on the first revision: its edit would overwrite the move it never saw.
    const stale = await movePage(before.bookRevision);
    expect(stale.errors?.[0].extensions).toMatchObject({
      code: 'REVISION_CONFLICT',
      currentRevision: before.bookRevision + 1,
      errors: [{ path: 'expectedRevision' }],
    });
    const after = await state();
    expect(after.bookRevision).toBe(before.bookRevision + 1);
    expect(after.pages).toEqual(moved.data.movePage.pages);

    const rest = await post(
      api.url,
      '/v2/project/book/undo',
      { id: link.projectId, expectedRevision: before.bookRevision },
      editorHeaders(link),
    );
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ code: 'REVISION_CONFLICT', currentRevision: before.bookRevision + 1 });
  });

  it('undo and redo are revisions of their own, kept on the server: a reload (a new request) still undoes and redoes', async () => {
    const start = await state();
    const moved = (await movePage(start.bookRevision)).data.movePage;
    expect(moved.pages[0].photos[0].photoId).toBe(start.pages[1].photos[0].photoId);

    const undone = await graphql(
      `mutation ($id: String!, $rev: Int) { undo(projectId: $id, expectedRevision: $rev) { ${STATE} } }`,
      {
        id: link.projectId,
        rev: moved.bookRevision,
      },
    );
    expect(undone.errors).toBeUndefined();
    expect(undone.data.undo.pages).toEqual(start.pages);
    expect(undone.data.undo.bookRevision).toBe(moved.bookRevision + 1);
    expect(undone.data.undo.canRedo).toBe(true);

    // As the editor reloaded: the REST twin, from the history in the database.
    const reloaded = await request(api.url, 'GET', `/v2/project/book?id=${link.projectId}`, {
      headers: editorHeaders(link),
    });
    expect(reloaded.status).toBe(200);
    expect(reloaded.body).toMatchObject({ revision: moved.bookRevision + 1, canRedo: true });
    const redone = await post(api.url, '/v2/project/book/redo', { id: link.projectId }, editorHeaders(link));
    expect(redone.body).toMatchObject({ revision: moved.bookRevision + 2, canRedo: false, canUndo: true });
    expect((await state()).pages).toEqual(moved.pages);

    const nothing = await post(api.url, '/v2/project/book/redo', { id: link.projectId }, editorHeaders(link));
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('NOTHING_TO_REDO');
  });

  it('an edit after an undo ends the redo; undoing every edit reaches the book as built, then NOTHING_TO_UNDO', async () => {
    let current = await state();
    while (current.canUndo)
      current = (await graphql(`mutation ($id: String!) { undo(projectId: $id) { ${STATE} } }`, { id: link.projectId }))
        .data.undo;
    const built = current.pages;
    const refused = await graphql(`mutation ($id: String!) { undo(projectId: $id) { bookRevision } }`, {
      id: link.projectId,
    });
    expect(refused.errors?.[0].extensions?.code).toBe('NOTHING_TO_UNDO');
    await movePage();
    await graphql(`mutation ($id: String!) { undo(projectId: $id) { bookRevision } }`, { id: link.projectId });
    await graphql(
      `mutation ($id: String!) { setPageLayout(projectId: $id, page: 2, layout: "grid-4") { bookRevision } }`,
      {
        id: link.projectId,
      },
    );
    expect((await state()).canRedo).toBe(false);
    await graphql(`mutation ($id: String!) { undo(projectId: $id) { bookRevision } }`, { id: link.projectId });
    expect((await state()).pages).toEqual(built);
  });

  it('a crop is stored per slot and cropRect answers the part of the photo it shows; bad numbers name their field', async () => {
    const set = await graphql(
      `mutation ($id: String!) { setSlotCrop(projectId: $id, slot: { page: 1, slot: 0 }, crop: { x: 0.25, y: 0.5, zoom: 2 }) { ${STATE} } }`,
      { id: link.projectId },
    );
    expect(set.errors).toBeUndefined();
    const slot = set.data.setSlotCrop.pages[0].photos[0];
    expect(slot.crop).toEqual({ x: 0.25, y: 0.5, zoom: 2 });
    // Half the covering width and height, centred on x = 0.25 as far as the photo's edge allows.
    expect(slot.cropRect.width).toBeLessThanOrEqual(0.5 + 1e-9);
    expect(slot.cropRect.left + slot.cropRect.width / 2).toBeCloseTo(Math.max(0.25, slot.cropRect.width / 2), 6);

    const automatic = set.data.setSlotCrop.pages[1].photos[0];
    expect(automatic.crop).toBeNull();
    expect(automatic.cropRect.left + automatic.cropRect.width / 2).toBeCloseTo(0.5, 6);

    const bad = await graphql(
      `mutation ($id: String!) { setSlotCrop(projectId: $id, slot: { page: 1, slot: 0 }, crop: { x: 0.5, y: 0.5, zoom: 9 }) { bookRevision } }`,
      { id: link.projectId },
    );
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'crop.zoom' }] });
    const restBad = await post(
      api.url,
      '/v2/project/book/crop',
      { id: link.projectId, page: 1, slot: 7, crop: null },
      editorHeaders(link),
    );
    expect(restBad.status).toBe(400);
    expect(restBad.body.errors[0].path).toBe('slot.slot');
  });

  it('preflight warns when the zoom takes a photo below its DPI floor', async () => {
    const page = (await state()).pages.find((p: any) => p.photos.length === 1);
    const crop = await post(
      api.url,
      '/v2/project/book/crop',
      { id: link.projectId, page: page.number, slot: 0, crop: { x: 0.5, y: 0.5, zoom: 5 } },
      serviceHeader(shop.credentials.dev),
    );
    expect(crop.status).toBe(200);
    const preflight = await request(api.url, 'GET', `/v2/project/preflight?id=${link.projectId}`, {
      headers: serviceHeader(shop.credentials.dev),
    });
    const problem = preflight.body.problems.find((p: any) => p.page === page.number && p.slot === 0);
    expect(problem.message).toContain('at zoom 5');
    expect(['LOW_RESOLUTION', 'RESOLUTION_TOO_LOW']).toContain(problem.code);
  });

  it('captions are stored per page in a shipped font; an unknown font or an empty text is refused by field', async () => {
    const caption = { text: 'Summer 2024\nat the lake', font: 'Lora', sizePt: 18, x: 0.1, y: 0.8, width: 0.5 };
    const set = await post(
      api.url,
      '/v2/project/book/captions',
      { id: link.projectId, page: 3, captions: [caption] },
      editorHeaders(link),
    );
    expect(set.status).toBe(200);
    expect((await state()).pages[2].captions).toEqual([caption]);
    const font = await graphql(
      `mutation ($id: String!) { setPageCaptions(projectId: $id, page: 3, captions: [{ text: "x", font: "Comic Sans", sizePt: 12, x: 0, y: 0, width: 1 }]) { bookRevision } }`,
      { id: link.projectId },
    );
    expect(font.errors?.[0].extensions).toMatchObject({ code: 'UNKNOWN_FONT', errors: [{ path: 'captions.0.font' }] });
    const empty = await graphql(
      `mutation ($id: String!) { setPageCaptions(projectId: $id, page: 3, captions: [{ text: "  ", font: "Lora", sizePt: 12, x: 0, y: 0, width: 1 }]) { bookRevision } }`,
      { id: link.projectId },
    );
    expect(empty.errors?.[0].extensions?.errors).toEqual([{ path: 'captions.0.text', message: 'must not be empty' }]);
  });

  it("one book's editor link cannot read or edit another book, nor can another shop", async () => {
    const before = await state(secondLink);
    const foreign = await post(
      api.url,
      '/v2/project/book/captions',
      { id: secondLink.projectId, page: 1, captions: [] },
      editorHeaders(link),
    );
    expect(foreign.status).toBe(404);
    const read = await request(api.url, 'GET', `/v2/project/book?id=${secondLink.projectId}`, {
      headers: editorHeaders(link),
    });
    expect(read.status).toBe(404);
    const otherTenant = await post(
      api.url,
      '/v2/project/book/undo',
      { id: secondLink.projectId },
      serviceHeader(otherShop.credentials.dev),
    );
    expect(otherTenant.status).toBe(404);
    const otherPartition = await post(
      api.url,
      '/v2/project/book/crop',
      { id: secondLink.projectId, page: 1, slot: 0, crop: null },
      serviceHeader(shop.credentials.prod),
    );
    expect(otherPartition.status).toBe(404);
    const viaGraphql = await graphql(`mutation ($id: String!) { undo(projectId: $id) { bookRevision } }`, {
      id: secondLink.projectId,
    });
    expect(viaGraphql.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await state(secondLink)).toEqual(before);
  });

  it("a second editor on the same book hears each revision within a second (graphql-ws), and another book's editor hears nothing", async () => {
    const heard: any[] = [];
    const foreignHeard: any[] = [];
    const listen = (session: EditorCredentials, projectId: string, into: any[]) => {
      const socket = createClient({
        url: `${api.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: editorConnectionParams(session),
        retryAttempts: 0,
      });
      sockets.push(socket);
      return new Promise<void>((subscribed) => {
        socket.on('connected', () => setTimeout(subscribed, 200));
        socket.subscribe(
          {
            query: `subscription ($id: String!) { bookRevised(projectId: $id) { projectId revision edit } }`,
            variables: { id: projectId },
          },
          { next: (message) => into.push(message), error: (error) => into.push({ error }), complete: () => {} },
        );
      });
    };
    await listen(link, link.projectId, heard);
    await listen(secondLink, link.projectId, foreignHeard);
    const before = await state();
    const started = Date.now();
    await movePage(before.bookRevision);
    await waitFor(async () => heard.some((m) => m.data?.bookRevised), 1_000, 'the revision to be heard');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(heard[0].data.bookRevised).toEqual({
      projectId: link.projectId,
      revision: before.bookRevision + 1,
      edit: 'movePage',
    });
    await graphql(`mutation ($id: String!) { undo(projectId: $id) { bookRevision } }`, { id: link.projectId });
    await waitFor(async () => heard.length === 2, 1_000, 'the undo to be heard');
    expect(heard[1].data.bookRevised).toMatchObject({ revision: before.bookRevision + 2, edit: 'undo movePage' });
    // The other book's link asked for this book: refused as not found, never a revision.
    expect(foreignHeard.every((m) => !m.data?.bookRevised)).toBe(true);
    expect(JSON.stringify(foreignHeard)).toContain('NOT_FOUND');
  });

  it('a writer of the book other than the editor (a rebuild) moves the revision too and ends the history', async () => {
    const start = await state(secondLink);
    await graphql(
      `mutation ($id: String!) { movePage(projectId: $id, from: 1, to: 2) { bookRevision } }`,
      { id: secondLink.projectId },
      secondLink,
    );
    expect((await state(secondLink)).canUndo).toBe(true);
    const orm = await api.orm();
    // As the build writes it: the book column alone, knowing nothing of revisions.
    await orm.em
      .fork()
      .getConnection()
      .execute(`update projects set book = jsonb_set(book, '{cover,title}', '"Rebuilt"') where id = ?`, [
        secondLink.projectId,
      ]);
    const after = await state(secondLink);
    expect(after.bookRevision).toBe(start.bookRevision + 2);
    expect([after.canUndo, after.canRedo]).toEqual([false, false]);
    const stale = await graphql(
      `mutation ($id: String!, $rev: Int) { undo(projectId: $id, expectedRevision: $rev) { bookRevision } }`,
      { id: secondLink.projectId, rev: start.bookRevision + 1 },
      secondLink,
    );
    expect(stale.errors?.[0].extensions).toMatchObject({
      code: 'REVISION_CONFLICT',
      currentRevision: start.bookRevision + 2,
    });
  });
});
