import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
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

const STATE = `bookRevision canUndo canRedo
  photos { id status }
  pages { number layout photos { photoId crop { x y zoom } } }`;

interface Book {
  bookRevision: number;
  canUndo: boolean;
  canRedo: boolean;
  photos: { id: string; status: string }[];
  pages: { number: number; layout: string; photos: { photoId: string; crop: unknown }[] }[];
}

const placed = (book: Book) => book.pages.flatMap((page) => page.photos.map((slot) => slot.photoId));

describe('placePhoto and unplacePhoto: the tray and uploads into the book (GraphQL and REST)', () => {
  let api: TestService;
  let shop: IssuedClient;
  let otherShop: IssuedClient;
  let photos: PhotoServer;
  let link: EditorCredentials;
  let sibling: EditorCredentials;
  let foreign: EditorCredentials;
  const sockets: Client[] = [];

  async function generate(
    userId: string,
    urls: string[],
    credentials = shop.credentials.dev,
    settled = (book: Book) => book.pages.length > 0,
  ): Promise<EditorCredentials> {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId, sku: 'PB-HC-A4-L', psp: 'local', marketId: 0, photos: urls.map(photos.url) },
      serviceHeader(credentials),
    );
    expect(generated.status).toBe(200);
    const credentialsOfLink = editorCredentialsOf(generated.body.url);
    await waitFor(
      async () => {
        const book = await state(credentialsOfLink).catch(() => undefined);
        return !!book && settled(book);
      },
      60_000,
      'the book to be built',
    );
    return credentialsOfLink;
  }

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Tray shop');
    otherShop = await api.createClient('Other tray shop');
    photos = await startPhotoServer({
      '/1.jpg': { body: await makePhoto({ width: 2400, height: 1600, takenAt: '2024:05:01 10:00:00' }) },
      '/2.jpg': { body: await makePhoto({ width: 2400, height: 1700, takenAt: '2024:05:02 10:00:00' }) },
      '/3.jpg': { body: await makePhoto({ width: 1700, height: 2400, takenAt: '2024:05:03 10:00:00' }) },
      '/4.jpg': { body: await makePhoto({ width: 2000, height: 1500, takenAt: '2024:05:04 10:00:00' }) },
    });
    link = await generate('tray-user', ['/1.jpg', '/2.jpg', '/3.jpg', '/missing.jpg'], undefined, (book) =>
      book.photos.every((p) => p.status === 'idle' || p.status === 'failed'),
    );
    sibling = await generate('sibling-user', ['/1.jpg', '/4.jpg']);
    foreign = await generate('foreign-user', ['/2.jpg', '/3.jpg'], otherShop.credentials.dev);
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
  async function state(session = link): Promise<Book> {
    const answer = await graphql(
      `query ($id: String!) { project(id: $id) { ${STATE} } }`,
      { id: session.projectId },
      session,
    );
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data!.project;
  }
  const place = (
    args: { photoId: string; slot?: { page: number; slot: number }; toPage?: number; rev?: number },
    session = link,
    projectId = session.projectId,
  ) =>
    graphql(
      `mutation ($id: String!, $photoId: String!, $slot: SlotRefInput, $toPage: Int, $rev: Int) {
        placePhoto(projectId: $id, photoId: $photoId, slot: $slot, toPage: $toPage, expectedRevision: $rev) { ${STATE} } }`,
      { id: projectId, ...args },
      session,
    );
  const unplace = (slot: { page: number; slot: number }, session = link) =>
    graphql(
      `mutation ($id: String!, $slot: SlotRefInput!) { unplacePhoto(projectId: $id, slot: $slot) { ${STATE} } }`,
      { id: session.projectId, slot },
      session,
    );
  const firstPhotoPage = (book: Book) => book.pages.find((page) => page.photos.length > 0)!;

  it('takes a photo out of its slot to the unused photos, and puts it back in place of another, each undoable', async () => {
    const start = await state();
    const page = firstPhotoPage(start);
    const out = page.photos[0].photoId;
    const taken = await unplace({ page: page.number, slot: 0 });
    expect(taken.errors).toBeUndefined();
    const afterOut: Book = taken.data.unplacePhoto;
    expect(placed(afterOut)).not.toContain(out);
    expect(afterOut.photos.map((p) => p.id)).toContain(out); // still the project's: in the tray, unused
    expect(afterOut.bookRevision).toBe(start.bookRevision + 1);

    // Back in, in place of another photo: that one leaves the book (to the tray) instead.
    const target = firstPhotoPage(afterOut);
    const replaced = target.photos[0].photoId;
    const put = await place({
      photoId: out,
      slot: { page: target.number, slot: 0 },
      rev: afterOut.bookRevision,
    });
    expect(put.errors).toBeUndefined();
    const afterIn: Book = put.data.placePhoto;
    expect(afterIn.pages[target.number - 1].photos[0].photoId).toBe(out);
    expect(placed(afterIn)).not.toContain(replaced);
    expect(afterIn.canUndo).toBe(true);

    const undone = await graphql(`mutation ($id: String!) { undo(projectId: $id) { ${STATE} } }`, {
      id: link.projectId,
    });
    expect(placed(undone.data.undo)).toEqual(placed(afterOut));
    const redone = await graphql(`mutation ($id: String!) { redo(projectId: $id) { ${STATE} } }`, {
      id: link.projectId,
    });
    expect(placed(redone.data.redo)).toEqual(placed(afterIn));

    // On a revision since replaced: refused with the current one, nothing written.
    const stale = await place({
      photoId: replaced,
      slot: { page: target.number, slot: 0 },
      rev: afterOut.bookRevision,
    });
    expect(stale.errors?.[0].extensions).toMatchObject({
      code: 'REVISION_CONFLICT',
      currentRevision: redone.data.redo.bookRevision,
    });
    expect(placed(await state())).toEqual(placed(afterIn));
  });

  it('is told to the other editors of the book (bookRevised), as placePhoto', async () => {
    const heard: any[] = [];
    const socket = createClient({
      url: `${api.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: editorConnectionParams(link),
      retryAttempts: 0,
    });
    sockets.push(socket);
    await new Promise<void>((subscribed) => {
      socket.on('connected', () => setTimeout(subscribed, 200));
      socket.subscribe(
        {
          query: `subscription ($id: String!) { bookRevised(projectId: $id) { revision edit } }`,
          variables: { id: link.projectId },
        },
        { next: (message) => heard.push(message), error: (error) => heard.push({ error }), complete: () => {} },
      );
    });
    const book = await state();
    const unused = book.photos.find((p) => p.status === 'idle' && !placed(book).includes(p.id))!;
    const page = firstPhotoPage(book);
    await place({ photoId: unused.id, slot: { page: page.number, slot: 0 } });
    await waitFor(async () => heard.some((m) => m.data?.bookRevised), 2_000, 'the revision to be heard');
    expect(heard[0].data.bookRevised).toEqual({ revision: book.bookRevision + 1, edit: 'placePhoto' });
  });

  it('REST twins: place onto a page with room and take out again, with the revision they made', async () => {
    const book = await state();
    const unused = book.photos.find((p) => p.status === 'idle' && !placed(book).includes(p.id))!;
    const blank = book.pages.find((page) => page.photos.length === 0);
    expect(blank, 'a blank page in the built book').toBeDefined();
    const put = await post(
      api.url,
      '/v2/project/book/place',
      { id: link.projectId, photoId: unused.id, toPage: blank!.number, expectedRevision: book.bookRevision },
      editorHeaders(link),
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      projectId: link.projectId,
      revision: book.bookRevision + 1,
      canUndo: true,
      canRedo: false,
    });
    const after = await state();
    expect(after.pages[blank!.number - 1]).toMatchObject({ layout: 'full', photos: [{ photoId: unused.id }] });

    const out = await post(
      api.url,
      '/v2/project/book/unplace',
      { id: link.projectId, slot: { page: blank!.number, slot: 0 } },
      serviceHeader(shop.credentials.dev),
    );
    expect(out.status).toBe(200);
    expect((await state()).pages[blank!.number - 1]).toMatchObject({ layout: 'blank', photos: [] });
  });

  it('places an uploaded photo by its upload id; the upload placed itself first as an undoable edit', async () => {
    const before = await state();
    const body = await makePhoto({ width: 1600, height: 1200, takenAt: '2024:06:01 10:00:00' });
    const created = await fetch(`${api.url}/v2/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        ...editorHeaders(link),
        'upload-length': String(body.length),
        'upload-metadata': `projectId ${Buffer.from(link.projectId).toString('base64')}`,
        'content-type': 'application/offset+octet-stream',
      },
      body,
    });
    expect(created.status).toBe(201);
    const uploadId = created.headers.get('location')!.split('/').pop()!;
    await waitFor(async () => placed(await state()).includes(uploadId), 30_000, 'the upload to be placed');
    const landed = await state();
    // Its own revision and undoable: the editor's history survived the upload.
    expect(landed.bookRevision).toBe(before.bookRevision + 1);
    expect(landed.canUndo).toBe(true);

    const page = firstPhotoPage(landed);
    const moved = await post(
      api.url,
      '/v2/project/book/place',
      { id: link.projectId, photoId: uploadId, slot: { page: page.number, slot: 0 } },
      editorHeaders(link),
    );
    expect(moved.status).toBe(200);
    const after = await state();
    expect(after.pages[page.number - 1].photos[0].photoId).toBe(uploadId);
    // Already in the book elsewhere, so moved there (swapped), never shown twice.
    expect(placed(after).filter((id) => id === uploadId)).toHaveLength(1);
    expect(placed(after).sort()).toEqual(placed(landed).sort());
  });

  it('refuses, naming the field: unknown photo, a photo still uploading or failed, a slot or page that is not there', async () => {
    const book = await state();
    const page = firstPhotoPage(book);
    const codeOf = (answer: Awaited<ReturnType<typeof place>>) => [
      answer.errors?.[0].extensions?.code,
      answer.errors?.[0].extensions?.errors?.[0]?.path ?? answer.errors?.[0].message,
    ];
    expect(codeOf(await place({ photoId: randomUUID(), slot: { page: page.number, slot: 0 } }))).toEqual([
      'NOT_FOUND',
      'photoId',
    ]);
    expect(codeOf(await place({ photoId: 'not-a-uuid', slot: { page: page.number, slot: 0 } }))).toEqual([
      'NOT_FOUND',
      'photoId',
    ]);
    const failed = book.photos.find((p) => p.status === 'failed')!;
    expect(codeOf(await place({ photoId: failed.id, slot: { page: page.number, slot: 0 } }))).toEqual([
      'PHOTO_FAILED',
      'photoId',
    ]);
    // An upload with no byte yet: a photo `uploading`.
    const opened = await fetch(`${api.url}/v2/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        ...editorHeaders(link),
        'upload-length': '1000',
        'upload-metadata': `projectId ${Buffer.from(link.projectId).toString('base64')}`,
      },
    });
    const uploading = opened.headers.get('location')!.split('/').pop()!;
    expect(codeOf(await place({ photoId: uploading, slot: { page: page.number, slot: 0 } }))).toEqual([
      'PHOTO_NOT_READY',
      'photoId',
    ]);
    const idle = book.photos.find((p) => p.status === 'idle')!;
    expect(codeOf(await place({ photoId: idle.id, slot: { page: page.number, slot: 9 } }))).toEqual([
      'NO_SUCH_SLOT',
      'slot.slot',
    ]);
    expect(codeOf(await place({ photoId: idle.id, toPage: 999 }))).toEqual(['NO_SUCH_PAGE', 'toPage']);
    expect(codeOf(await place({ photoId: idle.id }))).toEqual(['VALIDATION_FAILED', 'slot']);
    const rest = await post(
      api.url,
      '/v2/project/book/place',
      { id: link.projectId, photoId: idle.id, slot: { page: 999, slot: 0 } },
      editorHeaders(link),
    );
    expect([rest.status, rest.body.code, rest.body.errors[0].path]).toEqual([400, 'NO_SUCH_PAGE', 'slot.page']);
    const unplaceMissing = await unplace({ page: page.number, slot: 7 });
    expect(unplaceMissing.errors?.[0].extensions?.code).toBe('NO_SUCH_SLOT');
    // Nothing of it was written.
    expect((await state()).bookRevision).toBe(book.bookRevision);
  });

  it('tenancy: no link or shop places into a book not its own, nor another project’s photo into its own', async () => {
    const book = await state();
    const page = firstPhotoPage(book);
    const mine = book.photos.find((p) => p.status === 'idle')!.id;
    const slot = { page: page.number, slot: 0 };
    // Another project's editor link (same shop) and another shop: this book is not found.
    const bySibling = await place({ photoId: mine, slot }, sibling, link.projectId);
    expect(bySibling.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const unplaceBySibling = await graphql(
      `mutation ($id: String!) { unplacePhoto(projectId: $id, slot: { page: ${page.number}, slot: 0 }) { bookRevision } }`,
      { id: link.projectId },
      sibling,
    );
    expect(unplaceBySibling.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    for (const [auth, who] of [
      [editorHeaders(sibling), 'sibling link'],
      [editorHeaders(foreign), 'other shop link'],
      [serviceHeader(otherShop.credentials.dev), 'other shop'],
    ] as const) {
      const put = await post(api.url, '/v2/project/book/place', { id: link.projectId, photoId: mine, slot }, auth);
      expect([put.status, put.body.errors?.[0]?.path], who).toEqual([404, 'id']);
      const out = await post(api.url, '/v2/project/book/unplace', { id: link.projectId, slot }, auth);
      expect([out.status, out.body.errors?.[0]?.path], who).toEqual([404, 'id']);
    }
    // This book's photo into another project's own book: as unknown as a photo that does not exist.
    const siblingBook = await state(sibling);
    const siblingSlot = { page: firstPhotoPage(siblingBook).number, slot: 0 };
    const stolen = await place({ photoId: mine, slot: siblingSlot }, sibling);
    expect([stolen.errors?.[0].extensions?.code, stolen.errors?.[0].extensions?.errors?.[0]?.path]).toEqual([
      'NOT_FOUND',
      'photoId',
    ]);
    const foreignBook = await state(foreign);
    const acrossShops = await post(
      api.url,
      '/v2/project/book/place',
      { id: foreign.projectId, photoId: mine, slot: { page: firstPhotoPage(foreignBook).number, slot: 0 } },
      serviceHeader(otherShop.credentials.dev),
    );
    expect([acrossShops.status, acrossShops.body.errors?.[0]?.path]).toEqual([404, 'photoId']);
    expect((await state()).bookRevision).toBe(book.bookRevision);
    expect((await state(sibling)).bookRevision).toBe(siblingBook.bookRevision);
    expect((await state(foreign)).bookRevision).toBe(foreignBook.bookRevision);
  });
});
