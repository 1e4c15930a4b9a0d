import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishProjectBuild, readBuildSource, startProjectBuild } from '../../../src/services/projects/build-steps';
import type { Book } from '../../../src/domain/book';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { waitFor } from '../../support/wait';

/** The build flow's steps run again after a crash or a retry: a step already done changes nothing. */
describe('project build steps', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Steps shop');
    auth = serviceHeader(shop.credentials.dev);
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function builtProject(): Promise<string> {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'steps-user', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 },
      auth,
    );
    expect(generated.status).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
        'editable',
    );
    return id;
  }

  async function eventsOf(id: string): Promise<string[]> {
    const orm = await api.orm();
    const rows = await orm.em
      .getConnection()
      .execute<{ status: string }[]>('SELECT status FROM status_events WHERE subject_id = ? ORDER BY sequence', [id]);
    return rows.map((row) => row.status);
  }

  it('moves a project through created, building and editable once, each with one event', async () => {
    const id = await builtProject();
    expect(await eventsOf(id)).toEqual(['created', 'building', 'editable']);
    const db = (await api.orm()).em.getConnection();

    // Run again on the editable project: nothing moves, nothing is recorded.
    expect(await startProjectBuild(db, id)).toEqual({ photoIds: [] });
    const source = await readBuildSource(db, id);
    expect(source).toMatchObject({
      id,
      clientId: shop.clientId,
      env: 'dev',
      status: 'editable',
      layoutType: 'fastbook',
      sku: 'PB-HC-A4-P',
      usablePhotos: [],
    });
    expect(source!.pages).toBeGreaterThan(0);
    const other: Book = { layoutType: 'fastbook', cover: { title: 'Replaced', texts: [] }, pages: [] };
    expect(await finishProjectBuild(db, id, { book: other, previewKey: 'elsewhere.png' })).toBe('editable');
    expect(await eventsOf(id)).toEqual(['created', 'building', 'editable']);
    const [row] = await db.execute<{ title: string; preview_key: string }[]>(
      'SELECT title, preview_key FROM projects WHERE id = ?',
      [id],
    );
    expect(row.title).not.toBe('Replaced');
    expect(row.preview_key).not.toBe('elsewhere.png');
  });

  it('leaves a project deleted meanwhile deleted, and answers so; a project that is gone reads as deleted', async () => {
    const id = await builtProject();
    expect(
      (await post(api.url, '/v2/project/delete', { user: 'steps-user', type: 'sync', ids: [id] }, auth)).status,
    ).toBe(200);
    const db = (await api.orm()).em.getConnection();
    const events = await eventsOf(id);
    const book: Book = { layoutType: 'fastbook', cover: { title: 'Too late', texts: [] }, pages: [] };
    expect(await finishProjectBuild(db, id, { book, previewKey: 'late.png' })).toBe('deleted');
    expect(await startProjectBuild(db, id)).toEqual({ photoIds: [] });
    expect(await eventsOf(id)).toEqual(events);
    expect(await finishProjectBuild(db, 'p-neverexisted00000000000', { book, previewKey: 'none.png' })).toBe('deleted');
    expect(await readBuildSource(db, 'p-neverexisted00000000000')).toBeNull();
  });
});
