import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

describe('projects: list, status, delete, duplicate, transfer, tenancy, expiry', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ PROJECT_TTL: '1h', DELETION_RETENTION: '1s' });
    client = await api.createClient('Lifecycle shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(() => api?.stop());

  const generate = async (body: Record<string, unknown>, headers = auth) => {
    const response = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, ...body },
      headers,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return new URL(response.body.url).searchParams.get('id')!;
  };
  const list = (user: string, cursor?: string, headers = auth) =>
    request(
      api.url,
      'GET',
      `/v2/project/list?user=${encodeURIComponent(user)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers },
    );
  const status = (id: string, headers = auth) =>
    request(api.url, 'GET', `/v2/project/status?id=${encodeURIComponent(id)}`, { headers });
  const editable = (id: string) =>
    waitFor(async () => (await status(id)).body.status?.project === 'editable', 30_000, `${id} editable`);
  const projectsCreatedSince = async (since: Date) =>
    Number(
      (
        await (
          await api.orm()
        ).em
          .getConnection()
          .execute('SELECT count(*) AS n FROM projects WHERE created_at >= ?', [since])
      )[0].n,
    );

  it("lists a user's projects with the documented fields and units, newest first", async () => {
    const before = Date.now();
    const first = await generate({ userId: 'lister' });
    const second = await generate({ userId: 'lister', custom: { title: 'Second book' } });
    await editable(second);
    const { status: code, body } = await list('lister');
    expect(code).toBe(200);
    expect(body.cursor).toBeUndefined();
    expect(body.data.map((p: any) => p.id)).toEqual([second, first]);
    const [project] = body.data;
    expect(Object.keys(project).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'link',
      'ordered',
      'preview',
      'product',
      'status',
      'title',
      'updatedAt',
    ]);
    expect(project.title).toBe('Second book');
    expect(project.createdAt).toBeGreaterThanOrEqual(before); // milliseconds
    expect(project.expiresAt).toBeLessThan(Date.now() / 100); // seconds
    expect(project.expiresAt).toBeGreaterThan(Math.floor(before / 1000) + 3500);
    expect(project.product).toEqual({ psp: 'local', sku: 'PB-HC-15-S', marketId: 0, marketIdAlt: 'eu' });
    // The editor link: the spec's `?id=<project_id>`, and the key that opens it.
    expect(project.link).toMatch(new RegExp(`^${api.config.frontendUrl}\\?id=${second}&editorKey=[A-Za-z0-9_-]{32}$`));
    expect(project.ordered).toBe(false);
    expect(project.status).toEqual({ photos: 'none', project: 'editable' });
    expect(new URL(project.preview).pathname).toMatch(/preview\.jpg$/);
  });

  it('pages by 100 with opaque cursors that stay stable while projects are added', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 103; i++) ids.push(await generate({ userId: 'pager' }));
    const page1 = await list('pager');
    expect(page1.body.data).toHaveLength(100);
    expect(page1.body.cursor).toEqual(expect.any(String));
    // New projects arrive between pages: they belong before page 1, so page 2 neither skips nor repeats.
    await generate({ userId: 'pager' });
    await generate({ userId: 'pager' });
    const page2 = await list('pager', page1.body.cursor);
    expect(page2.body.data).toHaveLength(3);
    expect(page2.body.cursor).toBeUndefined();
    const seen = [...page1.body.data, ...page2.body.data].map((p: any) => p.id);
    expect(new Set(seen).size).toBe(103);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('refuses a cursor it did not issue, naming cursor', async () => {
    const { status: code, body } = await list('pager', 'not-a-cursor');
    expect(code).toBe(400);
    expect(body).toMatchObject({ code: 'UNKNOWN_CURSOR', errors: [{ path: 'cursor' }] });
  });

  it('finds users by e-mail in any case, and an unknown user has no projects', async () => {
    const id = await generate({ email: 'Mixed.Case@Example.com' });
    expect((await list('mixed.case@example.COM')).body.data.map((p: any) => p.id)).toEqual([id]);
    expect((await list('nobody-here')).body).toEqual({ data: [] });
  });

  it('deletes synchronously: gone from the list, status deleted, then expunged with its files', async () => {
    const keep = await generate({ userId: 'deleter' });
    const doomed = await generate({ userId: 'deleter' });
    await editable(doomed);
    const preview = (await list('deleter')).body.data.find((p: any) => p.id === doomed).preview as string;
    const previewKey = new URL(preview).pathname.replace('/files/', '');
    expect(await api.service.files.exists(previewKey)).toBe(true);

    const { status: code, body } = await post(
      api.url,
      '/v2/project/delete',
      { user: 'deleter', type: 'sync', ids: [doomed] },
      auth,
    );
    expect(code).toBe(200);
    expect(body.message).toContain(doomed);
    expect((await list('deleter')).body.data.map((p: any) => p.id)).toEqual([keep]);
    expect((await status(doomed)).body.status.project).toBe('deleted');

    // DELETION_RETENTION is 1 s here: then the row and the files are gone.
    await waitFor(async () => (await status(doomed)).status === 404, 15_000, 'expunge');
    expect(await api.service.files.exists(previewKey)).toBe(false);
  });

  it('deletes asynchronously: answers at once and the projects leave the list', async () => {
    const ids = [await generate({ userId: 'async-deleter' }), await generate({ userId: 'async-deleter' })];
    const { status: code } = await post(
      api.url,
      '/v2/project/delete',
      { user: 'async-deleter', type: 'async', ids },
      auth,
    );
    expect(code).toBe(200);
    await waitFor(async () => (await list('async-deleter')).body.data.length === 0, 10_000, 'async deletion');
  });

  it("deletes only the named user's projects, all or nothing", async () => {
    const mine = await generate({ userId: 'owner-a' });
    const theirs = await generate({ userId: 'owner-b' });
    const { status: code, body } = await post(
      api.url,
      '/v2/project/delete',
      { user: 'owner-a', type: 'sync', ids: [mine, theirs] },
      auth,
    );
    expect(code).toBe(404);
    expect(body.errors[0].path).toBe('ids[1]');
    expect((await status(mine)).body.status.project).not.toBe('deleted');
    expect((await status(theirs)).body.status.project).not.toBe('deleted');
  });

  it.each([
    [{ user: 'u', type: 'async', ids: Array.from({ length: 11 }, (_, i) => `p-${i}`) }, 'ids'],
    [{ user: 'u', type: 'later', ids: ['p-1'] }, 'type'],
    [{ user: 'u', type: 'sync', ids: ['p-ok', 'q-1'] }, 'ids[1]'],
    [{ type: 'sync', ids: ['p-1'] }, 'user'],
  ])('refuses a bad delete request %j naming %s', async (body, path) => {
    const { status: code, body: problem } = await post(api.url, '/v2/project/delete', body, auth);
    expect(code).toBe(400);
    expect(problem.errors.map((e: any) => e.path)).toContain(path);
  });

  it('duplicates a project for the same owner with its photos, book and preview', async () => {
    const source = await generate({ userId: 'copier', custom: { title: 'Original' } });
    await editable(source);
    const { status: code, body } = await post(
      api.url,
      '/v2/project/duplicate',
      { id: source, callback: 'https://shop.test/hook' },
      auth,
    );
    expect(code).toBe(200);
    expect(body.id).toMatch(/^p-/);
    expect(body.id).not.toBe(source);
    expect(body).toMatchObject({ endUserId: 'copier', title: 'Original', product: { sku: 'PB-HC-15-S' } });
    expect(body.preview).not.toContain(source);
    expect((await fetch(body.preview)).status).toBe(200);
    expect((await list('copier')).body.data.map((p: any) => p.id).sort()).toEqual([source, body.id].sort());
    const bad = await post(api.url, '/v2/project/duplicate', { id: source, callback: 'javascript:alert(1)' }, auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('callback');
  });

  it('transfers a project to another user, keeping its id', async () => {
    const id = await generate({ userId: 'giver' });
    const { status: code, body } = await post(api.url, '/v2/project/transfer', { id, targetUser: 'taker' }, auth);
    expect(code).toBe(200);
    expect(body).toMatchObject({ id, endUserId: 'taker' });
    expect((await list('giver')).body.data).toEqual([]);
    expect((await list('taker')).body.data.map((p: any) => p.id)).toEqual([id]);
  });

  describe('tenancy', () => {
    it('another client cannot see, list, change or learn of a project: 404 like an unknown id', async () => {
      const other = serviceHeader((await api.createClient('Other shop')).credentials.dev);
      const id = await generate({ userId: 'private-user' });
      const foreign = await status(id, other);
      const unknown = await status('p-doesnotexist000000000000', other);
      expect(foreign.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(foreign.body.code).toBe(unknown.body.code);
      expect((await list('private-user', undefined, other)).body.data).toEqual([]);
      expect((await post(api.url, '/v2/project/duplicate', { id }, other)).status).toBe(404);
      expect((await post(api.url, '/v2/project/transfer', { id, targetUser: 'thief' }, other)).status).toBe(404);
      expect(
        (await post(api.url, '/v2/project/delete', { user: 'private-user', type: 'sync', ids: [id] }, other)).status,
      ).toBe(404);
      expect((await status(id)).body.status.project).not.toBe('deleted');
    });

    it('dev and prod credentials of one client see separate data', async () => {
      const prod = serviceHeader(client.credentials.prod);
      const id = await generate({ userId: 'two-worlds' });
      expect((await status(id, prod)).status).toBe(404);
      expect((await list('two-worlds', undefined, prod)).body.data).toEqual([]);
    });

    it('refuses a missing or wrong X-Service header with 401', async () => {
      const missing = await request(api.url, 'GET', '/v2/project/list?user=x');
      expect(missing.status).toBe(401);
      expect(missing.body.errors[0].path).toBe('X-Service');
      const wrong = await request(api.url, 'GET', '/v2/project/list?user=x', {
        headers: serviceHeader({ accessKey: client.credentials.dev.accessKey, accessSecret: 'guess' }),
      });
      expect(wrong.status).toBe(401);
      const notJson = await request(api.url, 'GET', '/v2/project/list?user=x', {
        headers: { 'x-service': 'key:secret' },
      });
      expect(notJson.status).toBe(401);
    });
  });

  describe('bad input to generate', () => {
    it.each([
      [{ email: 'a@b.co', userId: 'abc' }, 400, ['email', 'userId']],
      [{ userId: 'bad user!' }, 400, ['userId']],
      [{ email: 'not-an-email' }, 400, ['email']],
      [{ sku: 'NOPE' }, 422, ['sku']],
      [{ psp: 'printhub' }, 422, ['psp']],
      [{ marketId: 9 }, 422, ['marketId']],
      [{ marketId: 'mars' }, 422, ['marketId']],
      [
        { photos: ['https://ok.test/a.jpg', 'ftp://x/y.jpg', { id: 'x' }, 42] },
        400,
        ['photos[1]', 'photos[2]', 'photos[3]'],
      ],
      [{ layoutType: 'collage' }, 400, ['layoutType']],
      [{ sku: undefined }, 400, ['sku']],
      [{ custom: { coverPhoto: 'not a url' } }, 400, ['custom.coverPhoto']],
    ])('%j -> %i naming %j, and nothing is created', async (override, code, paths) => {
      // Counted by creation time: an earlier test's asynchronous delete may still be removing rows.
      const sent = new Date();
      const { status: actual, body } = await post(
        api.url,
        '/v2/generate',
        { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, ...override },
        auth,
      );
      expect(actual, JSON.stringify(body)).toBe(code);
      for (const path of paths) expect(body.errors.map((e: any) => e.path)).toContain(path);
      expect(await projectsCreatedSince(sent)).toBe(0);
    });

    it('accepts renderOptions.productId, renderOptions.psp and a numeric-string market', async () => {
      const id = await generate({ sku: '101', psp: 'local', marketId: '2', userId: 'alt-ids' });
      expect((await list('alt-ids')).body.data[0]).toMatchObject({
        id,
        product: { sku: 'PB-HC-15-S', marketId: 2, marketIdAlt: 'us' },
      });
    });

    it('refuses project ids without p- on status', async () => {
      const { status: code, body } = await status('123');
      expect(code).toBe(400);
      expect(body.errors[0].path).toBe('id');
    });
  });
});

describe('project expiry', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ PROJECT_TTL: '2s' });
    auth = serviceHeader((await api.createClient()).credentials.dev);
  });
  afterAll(() => api?.stop());

  it('sets expiresAt from the TTL and reports expired once it passes', async () => {
    const response = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'mayfly' },
      auth,
    );
    const id = new URL(response.body.url).searchParams.get('id')!;
    const [project] = (await request(api.url, 'GET', '/v2/project/list?user=mayfly', { headers: auth })).body.data;
    expect(project.expiresAt - Math.floor(project.createdAt / 1000)).toBeLessThanOrEqual(2);
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status.project ===
        'expired',
      10_000,
      'expiry',
    );
  });
});
