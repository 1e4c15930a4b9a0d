import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine, PendingFileMove, Photo, Project } from '../../../src/db/entities';
import { ormConfig } from '../../../src/db/orm-config';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { editableProject, printBody } from '../../support/print-fixtures';
import { editorCredentialsFor, editorHeaders } from '../../support/editor-link';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

const EMAIL = 'keys@example.com';
const DAY_S = 86_400;

/** Every /files URL anywhere in a JSON answer. */
function fileUrls(answer: unknown, into: string[] = []): string[] {
  if (typeof answer === 'string' && answer.includes('/files/')) into.push(answer);
  else if (Array.isArray(answer)) answer.forEach((item) => fileUrls(item, into));
  else if (answer && typeof answer === 'object') Object.values(answer).forEach((value) => fileUrls(value, into));
  return into;
}

describe('stored files are keyed by opaque storage keys, never by the project id (the editor credential)', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;
  let photos: PhotoServer;
  let projectId: string;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' });
    client = await api.createClient('Key shop');
    auth = serviceHeader(client.credentials.dev);
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 1200, height: 900 }) },
      '/b.jpg': { body: await makePhoto({ width: 900, height: 1200 }) },
    });
    projectId = await editableProject(api, auth, {
      email: EMAIL,
      photos: [photos.url('/a.jpg'), photos.url('/b.jpg')],
    });
    expect((await post(api.url, '/v2/print', printBody('keys-order', projectId), auth)).status).toBe(200);
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/order/print-files?orderId=keys-order`, { headers: auth })).body.lines?.[0]
          ?.printFiles,
      120_000,
      'print files',
    );
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  /** Every answer that hands out file URLs: list, print files, order history, GraphQL (client and editor); status carries none. */
  async function handedOutUrls(): Promise<{ where: string; url: string }[]> {
    const graphql = (headers: Record<string, string>) =>
      graphqlAt(api.url, headers, `{ project(id: "${projectId}") { preview photos { thumbnail } } }`);
    const answers: Record<string, unknown> = {
      list: (await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(EMAIL)}`, { headers: auth }))
        .body,
      status: (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body,
      printFiles: (await request(api.url, 'GET', `/v2/order/print-files?orderId=keys-order`, { headers: auth })).body,
      orderHistory: (
        await post(api.url, '/api/v2/user/get-order-history.php', {
          env: 'dev',
          key: client.credentials.dev.apiKey,
          email: EMAIL,
        })
      ).body,
      graphqlClient: await graphql(auth),
      graphqlEditor: await graphql(editorHeaders(await editorCredentialsFor(api.url, auth, projectId))),
    };
    return Object.entries(answers).flatMap(([where, answer]) => fileUrls(answer).map((url) => ({ where, url })));
  }

  it('no file URL in list, status, print files, order history or GraphQL contains the project id, and each serves its file', async () => {
    const urls = await handedOutUrls();
    expect(new Set(urls.map((u) => u.where))).toEqual(
      new Set(['list', 'printFiles', 'orderHistory', 'graphqlClient', 'graphqlEditor']),
    );
    const bare = projectId.slice('p-'.length);
    for (const { where, url } of urls) {
      expect(url, where).not.toContain(bare);
      const served = await fetch(url);
      expect(served.status, `${where}: ${url}`).toBe(200);
      // Not read: cancelled, so the print PDF's response does not stay open until the service stops.
      await served.body?.cancel();
    }
    // The keys the rows hold, which every URL is made from, do not either.
    const orm = await api.orm();
    const project = await orm.em.fork().findOneOrFail(Project, { id: projectId });
    const keys = [
      project.previewKey,
      ...(await orm.em.fork().find(Photo, { project: projectId })).flatMap((p) => [p.originalKey, p.thumbnailKey]),
      ...(await orm.em.fork().find(OrderLine, { project: projectId })).flatMap((l) => [
        l.coverPreviewKey,
        l.pdfKey,
        l.manifestKey,
      ]),
    ];
    expect(keys.every((key) => key && !key.includes(bare))).toBe(true);
    expect(project.storageKey).toMatch(/^[A-Za-z0-9]{24,32}$/);
  });

  it('cover previews in lists and order history are signed for PREVIEW_URL_TTL (30 days), editor thumbnails for FILE_URL_TTL', async () => {
    const urls = await handedOutUrls();
    const expiresIn = (url: string) => Number(new URL(url).searchParams.get('expires')) - Date.now() / 1000;
    // The project's cover preview; a print file's cover-preview.jpg is a print file, signed for FILE_URL_TTL.
    const previews = urls.filter((u) => u.url.includes('/preview.jpg'));
    expect(previews.map((u) => u.where)).toEqual(
      expect.arrayContaining(['list', 'orderHistory', 'graphqlClient', 'graphqlEditor']),
    );
    for (const { url } of previews) expect(expiresIn(url)).toBeGreaterThan(30 * DAY_S - 60);
    const thumbnails = urls.filter((u) => u.url.includes('thumbnail.jpg'));
    expect(thumbnails.length).toBeGreaterThan(0);
    for (const { url } of thumbnails) expect(expiresIn(url)).toBeLessThan(16 * 60);
  });
});

describe('files stored under the project id before opaque keys', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' });
    client = await api.createClient('Old shop');
    auth = serviceHeader(client.credentials.dev);
    photos = await startPhotoServer({ '/a.jpg': { body: await makePhoto({ width: 1200, height: 900 }) } });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it("are moved to the project's new storage key by the migration and the next start, and keep being served", async () => {
    const projectId = await editableProject(api, auth, { email: EMAIL, photos: [photos.url('/a.jpg')] });
    expect((await post(api.url, '/v2/print', printBody('old-order', projectId), auth)).status).toBe(200);
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/order/print-files?orderId=old-order`, { headers: auth })).body.lines?.[0]
          ?.printFiles,
      120_000,
      'print files',
    );
    const contents = async () => {
      const list = (
        await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(EMAIL)}`, { headers: auth })
      ).body;
      const history = (
        await post(api.url, '/api/v2/user/get-order-history.php', {
          env: 'dev',
          key: client.credentials.dev.apiKey,
          email: EMAIL,
        })
      ).body;
      const files = (await request(api.url, 'GET', `/v2/order/print-files?orderId=old-order`, { headers: auth })).body
        .lines[0].printFiles;
      const read = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer()).toString('base64');
      return {
        preview: await read(list.data[0].preview),
        cover: await read(history.results[0].orders[0].coverPreview),
        manifest: await read(files.manifestUrl),
        pdf: await read(files.pdfUrl),
      };
    };
    const before = await contents();
    const config = api.config;
    await api.stop({ keepData: true });

    // Put the project back as the layout before opaque keys stored it: folders and keys named by the project id.
    const orm = await MikroORM.init(ormConfig(api.databaseUrl, { poolMax: 2 }));
    const db = orm.em.getConnection();
    const [row] = await db.execute(
      `SELECT p.client_id, p.env, p.storage_key, l.id AS line_id, l.order_id FROM projects p JOIN order_lines l ON l.project_id = p.id WHERE p.id = ?`,
      [projectId],
    );
    const root = path.join(config.dataDir, 'files');
    const projectFolder = (name: string) => `${row.client_id}/${row.env}/projects/${name}`;
    const printFolder = (name: string) => `${row.client_id}/${row.env}/orders/${row.order_id}/${name}`;
    const moveBack = async (from: string, to: string) => {
      await mkdir(path.dirname(path.join(root, to)), { recursive: true });
      await rename(path.join(root, from), path.join(root, to));
    };
    await moveBack(projectFolder(row.storage_key), projectFolder(projectId));
    await moveBack(printFolder(row.line_id), printFolder(projectId));
    const swap = (column: string, from: string, to: string) => `${column} = replace(${column}, '${from}/', '${to}/')`;
    await db.execute(
      `UPDATE projects SET ${swap('preview_key', projectFolder(row.storage_key), projectFolder(projectId))} WHERE id = ?`,
      [projectId],
    );
    await db.execute(
      `UPDATE photos SET ${swap('original_key', projectFolder(row.storage_key), projectFolder(projectId))}, ${swap('thumbnail_key', projectFolder(row.storage_key), projectFolder(projectId))} WHERE project_id = ?`,
      [projectId],
    );
    await db.execute(
      `UPDATE order_lines SET ${swap('cover_preview_key', projectFolder(row.storage_key), projectFolder(projectId))}, ${swap('pdf_key', printFolder(row.line_id), printFolder(projectId))}, ${swap('manifest_key', printFolder(row.line_id), printFolder(projectId))} WHERE id = ?`,
      [row.line_id],
    );
    const migrator = orm.getMigrator();
    await migrator.down({ to: 'Migration20261123000428' });
    expect((await db.execute(`SELECT preview_key FROM projects WHERE id = ?`, [projectId]))[0].preview_key).toContain(
      projectId,
    );
    await orm.close();

    // The service's start applies the migration and moves the folders.
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' }, api);
    const check = await api.orm();
    expect(await check.em.fork().count(PendingFileMove, {})).toBe(0);
    const project = await check.em.fork().findOneOrFail(Project, { id: projectId });
    expect(project.storageKey).not.toBe(row.storage_key);
    expect(project.previewKey).toBe(`${projectFolder(project.storageKey)}/preview.jpg`);
    const line = await check.em.fork().findOneOrFail(OrderLine, { id: row.line_id });
    expect(line.pdfKey).toBe(`${printFolder(row.line_id)}/interior.pdf`);
    expect(existsSync(path.join(root, projectFolder(projectId)))).toBe(false);
    expect(existsSync(path.join(root, printFolder(projectId)))).toBe(false);
    const bare = projectId.slice('p-'.length);
    for (const url of fileUrls(
      (await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(EMAIL)}`, { headers: auth })).body,
    ))
      expect(url).not.toContain(bare);
    expect(await contents()).toEqual(before);
    // Its print waits up to 120 s for the files (a busy machine), a restart besides: more than the default 60 s.
  }, 240_000);
});
