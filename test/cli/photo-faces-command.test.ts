import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { startPhotoServer, type PhotoServer } from '../support/photo-server';
import { waitFor } from '../support/wait';
import { faceOnLandscape, landscape } from '../support/face-photos';
import type { IssuedClient } from '../../src/services/clients/client-admin';

const run = promisify(execFile);

/**
 * `npm run cli -- photo faces` (docs/operations.md, Faces of older photos): photos analysed before
 * faces were looked for (faces NULL, as the migration left them) get their faces detected from their
 * stored thumbnail and stored, once; `--client` keeps to one shop, `--limit` to a batch.
 */
describe('operator CLI: photo faces', () => {
  let api: TestService;
  let shop: IssuedClient;
  let other: IssuedClient;
  let photos: PhotoServer;
  let projectId: string;

  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args], {
        env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: api.config.dataDir, LOG_LEVEL: 'warn' },
      });
      return { code: 0, stdout, stderr: '' };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const facesOfProject = async () =>
    (
      await (
        await api.orm()
      ).em
        .getConnection()
        .execute('SELECT faces FROM photos WHERE project_id = ? ORDER BY position', [projectId])
    ).map((row) => row.faces as unknown);

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Older photos shop');
    other = await api.createClient('Another shop');
    const placed = await faceOnLandscape({
      width: 3000,
      height: 2000,
      index: 0,
      faceHeight: 400,
      faceLeft: 1300,
      faceTop: 600,
    });
    photos = await startPhotoServer({
      '/face.jpg': { body: placed.photo },
      '/landscape.jpg': { body: await landscape(3000, 2000).jpeg({ quality: 90 }).toBuffer() },
    });
    const auth = serviceHeader(shop.credentials.dev);
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'older',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        photos: ['/face.jpg', '/landscape.jpg'].map(photos.url),
      },
      auth,
    );
    expect(generated.status).toBe(200);
    projectId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status
          ?.project === 'editable',
      60_000,
      'the book to be built',
    );
    // As photos analysed before faces were looked for.
    await (await api.orm()).em
      .getConnection()
      .execute('UPDATE photos SET faces = NULL WHERE project_id = ?', [projectId]);
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it("another shop's run touches none of them; a bad --limit or --client is refused by name", async () => {
    const elsewhere = await cli('photo', 'faces', '--client', other.clientId, '--json');
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toEqual({ checked: 0, withFaces: 0, withoutFaces: 0, unknown: 0 });
    const badLimit = await cli('photo', 'faces', '--limit', '0');
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('--limit');
    for (const client of ['no-such-client', '00000000-0000-4000-8000-000000000000']) {
      const badClient = await cli('photo', 'faces', '--client', client);
      expect(badClient.code, badClient.stderr).toBe(2);
      expect(badClient.stderr).toContain(`--client: no client ${client}`);
    }
    expect(await facesOfProject()).toEqual([null, null]);
  });

  it('detects and stores them once, in batches of --limit', async () => {
    const first = await cli('photo', 'faces', '--client', shop.clientId, '--limit', '1', '--json');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ checked: 1, unknown: 0 });
    const rest = await cli('photo', 'faces', '--json');
    expect(JSON.parse(rest.stdout)).toMatchObject({ checked: 1, unknown: 0 });
    const [withFace, without] = await facesOfProject();
    expect(withFace).toHaveLength(1);
    expect(without).toEqual([]);
    const again = await cli('photo', 'faces');
    expect(again.stdout).toContain('0 photos without faces looked at');
  });
});
