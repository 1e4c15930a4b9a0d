import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { waitFor } from '../support/wait';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { graphql as graphqlAt } from '../support/graphql';

const PROJECT_QUERY = `query Project($id: String!) {
  project(id: $id) {
    id title preview status { project photos }
    photos { id clientPhotoId assetId url status problem { code message } width height exifOrientation capturedAt quality curation { kept reason groupId score } }
    pages { number layout photos { photoId x y width height } texts { assetId text } }
    cover { title subtitle photoId }
  }
}`;

describe('generate: from photos on a web server to an editable book', () => {
  let api: TestService;
  let client: IssuedClient;
  let photos: PhotoServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    client = await api.createClient('Builder shop');
    auth = serviceHeader(client.credentials.dev);
    const truncated = (await makePhoto({ width: 600, height: 400 })).subarray(0, 2000);
    photos = await startPhotoServer({
      // Shot third, landscape pixels but EXIF says rotate 90°: a portrait photo.
      '/rotated.jpg': {
        body: await makePhoto({ width: 1200, height: 800, orientation: 6, takenAt: '2024:06:03 09:00:00' }),
      },
      '/first.jpg': {
        body: await makePhoto({ width: 1600, height: 1000, takenAt: '2024:06:01 08:30:00', colour: '#c0392b' }),
      },
      '/second.png': { body: await makePhoto({ width: 900, height: 900, format: 'png' }), type: 'image/png' },
      '/early.jpg': { body: await makePhoto({ width: 1000, height: 1500, takenAt: '2024:05:30 19:45:00' }) },
      '/corrupt.jpg': { body: truncated },
      '/cover.jpg': { body: await makePhoto({ width: 800, height: 800, colour: '#27ae60' }) },
    });
  });
  afterAll(async () => {
    await api?.stop();
    await photos?.close();
  });

  const graphql = (query: string, variables: Record<string, unknown>) => graphqlAt(api.url, auth, query, variables);

  it('creates the project at once and builds it: photos analysed, bad ones reported, book laid out, preview rendered', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'customer-42',
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        language: 'de',
        photos: [
          photos.url('/rotated.jpg'),
          { id: 'client-photo-1', url: photos.url('/first.jpg') },
          photos.url('/second.png'),
          photos.url('/corrupt.jpg'),
          photos.url('/missing.jpg'),
          photos.url('/early.jpg'),
        ],
        custom: { title: 'Sommer in Italien', subtitle: 'Juni 2024' },
        layoutType: 'fastbook',
      },
      auth,
    );
    expect(generated.status).toBe(200);
    const editor = new URL(generated.body.url);
    const id = editor.searchParams.get('id')!;
    expect(id).toMatch(/^p-[A-Za-z0-9]{24}$/);
    expect(Object.fromEntries(editor.searchParams)).toEqual({
      id,
      editorKey: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      clientId: client.clientId,
      clientName: 'Builder shop',
      user: 'customer-42',
      product: 'true',
      marketId: '0',
      language: 'de',
      sku: 'PB-HC-A4-P',
      psp: 'local',
    });

    const built = await waitFor(
      async () => {
        const { body } = await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth });
        return body.status?.project === 'editable' && body;
      },
      60_000,
      'the project to become editable',
    );
    // REST names the photos that failed, as GraphQL's Photo.problem does.
    expect(built).toEqual({
      id,
      status: { project: 'editable', photos: 'idle' },
      failedPhotos: expect.arrayContaining([
        expect.objectContaining({
          url: photos.url('/corrupt.jpg'),
          problem: expect.objectContaining({ code: 'NOT_AN_IMAGE' }),
        }),
        expect.objectContaining({
          url: photos.url('/missing.jpg'),
          problem: expect.objectContaining({ code: 'HTTP_STATUS' }),
        }),
      ]),
    });
    expect(built.failedPhotos).toHaveLength(2);

    const { data, errors } = await graphql(PROJECT_QUERY, { id });
    expect(errors).toBeUndefined();
    const project = data.project;
    expect(project.title).toBe('Sommer in Italien');
    const byUrl = (path: string) => project.photos.find((p: any) => p.url === photos.url(path));

    // EXIF orientation applied: 1200x800 pixels displayed as 800x1200.
    expect(byUrl('/rotated.jpg')).toMatchObject({
      status: 'idle',
      width: 800,
      height: 1200,
      exifOrientation: 6,
      capturedAt: '2024-06-03T09:00:00.000Z',
    });
    expect(byUrl('/first.jpg')).toMatchObject({
      status: 'idle',
      clientPhotoId: 'client-photo-1',
      width: 1600,
      height: 1000,
    });
    expect(byUrl('/second.png')).toMatchObject({ status: 'idle', capturedAt: null });
    expect(byUrl('/first.jpg').quality).toBeGreaterThan(0);
    // Bad photos are reported with the reason, and the others still made the book.
    expect(byUrl('/corrupt.jpg')).toMatchObject({ status: 'failed', problem: { code: 'NOT_AN_IMAGE' } });
    expect(byUrl('/missing.jpg')).toMatchObject({ status: 'failed', problem: { code: 'HTTP_STATUS' } });
    expect(byUrl('/missing.jpg').problem.message).toContain('404');

    // Book: even page count within the product's bounds (24..120), photos in capture-date order.
    expect(project.pages.length % 2).toBe(0);
    expect(project.pages.length).toBeGreaterThanOrEqual(24);
    expect(project.pages.length).toBeLessThanOrEqual(120);
    const placed = project.pages.flatMap((page: any) => page.photos.map((slot: any) => slot.photoId));
    const order = ['/early.jpg', '/first.jpg', '/rotated.jpg', '/second.png'].map((path) => byUrl(path).id);
    expect(placed).toEqual(order);
    expect(project.cover).toMatchObject({ title: 'Sommer in Italien', subtitle: 'Juni 2024' });

    // The preview is a real image at PUBLIC_URL, with the A4 portrait cover's proportions.
    expect(project.preview).toMatch(
      new RegExp(`^${api.config.publicUrl}/files/.+/preview\\.jpg\\?expires=\\d+&signature=[\\w-]+$`),
    );
    const preview = await fetch(project.preview);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
    expect(meta.height).toBe(800);
    expect(meta.width).toBe(Math.round((210 * 800) / 297));
  });

  it('smartbook starts each event (here each day) on a page of its own, in capture order', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        email: 'Traveller@Example.COM',
        sku: 103,
        psp: 'local',
        marketId: 'eu',
        layoutType: 'smartbook',
        photos: ['/first.jpg', '/rotated.jpg', '/early.jpg', '/second.png'].map((p) => photos.url(p)),
        custom: [{ id: 'coverPhoto', value: photos.url('/cover.jpg') }],
      },
      auth,
    );
    expect(generated.status).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    expect(new URL(generated.body.url).searchParams.get('user')).toBe('traveller@example.com');
    const project = await waitFor(
      async () => {
        const { data } = await graphql(PROJECT_QUERY, { id });
        return data?.project?.status.project === 'editable' && data.project;
      },
      60_000,
      'smartbook build',
    );
    // makePhoto draws the same circles in every photo, so the undated /second.png and /first.jpg
    // are one shot to curation; /first.jpg (sharpness 0.14, blurred) is its blurred copy, left out.
    const byPath = (path: string) => project.photos.find((p: any) => new URL(p.url).pathname === path);
    expect(byPath('/first.jpg').curation).toEqual({
      kept: false,
      reason: 'blurry',
      groupId: byPath('/second.png').id,
      score: expect.any(Number),
    });
    expect(byPath('/cover.jpg').curation).toBeNull();
    // Two dated days and one undated photo left: three events, each on its own page, oldest first,
    // the undated one last. These small photos would print below 150 DPI over a full page: centred.
    const urlOf = new Map(project.photos.map((p: any) => [p.id, new URL(p.url).pathname]));
    const laidOut = project.pages.filter((page: any) => page.photos.length > 0);
    expect(laidOut.map((page: any) => page.photos.map((s: any) => urlOf.get(s.photoId)))).toEqual([
      ['/early.jpg'],
      ['/rotated.jpg'],
      ['/second.png'],
    ]);
    expect(laidOut.map((page: any) => page.layout)).toEqual(['centred', 'centred', 'centred']);
    const coverAsset = project.photos.find((p: any) => p.assetId === 'coverPhoto');
    expect(coverAsset.status).toBe('idle');
    expect(project.cover.photoId).toBe(coverAsset.id);
    expect(project.pages.flatMap((page: any) => page.photos.map((s: any) => s.photoId))).not.toContain(coverAsset.id);
    expect(project.title).toBe('PB-HC-A4-L');
  });

  it('fetches every photo before it analyses any: analysing never spends the download deadline', async () => {
    // Five photos: four (the first batch) answer at once, the fifth only when the test says so.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const routes: Record<string, { body: Buffer; held?: Promise<void> }> = {};
    for (let i = 0; i < 4; i++) routes[`/quick-${i}.jpg`] = { body: await makePhoto({ width: 800, height: 600 }) };
    routes['/slow.jpg'] = { body: await makePhoto({ width: 800, height: 600 }), held };
    const slowHost = await startPhotoServer(routes);
    try {
      const generated = await post(
        api.url,
        '/v2/generate',
        {
          userId: 'deadline-1',
          sku: 'PB-HC-A4-P',
          psp: 'local',
          marketId: 0,
          photos: Object.keys(routes).map((p) => slowHost.url(p)),
        },
        auth,
      );
      expect(generated.status).toBe(200);
      const id = new URL(generated.body.url).searchParams.get('id')!;
      const statuses = async () =>
        ((await graphql(PROJECT_QUERY, { id })).data?.project?.photos ?? []).map((p: { status: string }) => p.status);
      await waitFor(
        async () => (await statuses()).filter((s: string) => s === 'analyzing').length === 4,
        30_000,
        'the first four fetched',
      );
      // Time enough to analyse four small photos (a batch fetched then analysed did): none is, while the fifth is still fetched.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await statuses()).toEqual(['analyzing', 'analyzing', 'analyzing', 'analyzing', 'uploading']);
      release();
      await waitFor(
        async () => (await statuses()).every((s: string) => s === 'idle'),
        60_000,
        'every photo analysed once the fifth arrived',
      );
    } finally {
      release();
      await slowHost.close();
    }
  }, 120_000);

  it('a project without photos is editable with blank pages and the sku as title', async () => {
    const generated = await post(api.url, '/v2/generate', { sku: 'PB-SC-A5-P', psp: 'local', marketId: 1 }, auth);
    expect(generated.status).toBe(200);
    const url = new URL(generated.body.url);
    expect(url.searchParams.get('user')).toMatch(/^u-[A-Za-z0-9]{20}$/);
    const id = url.searchParams.get('id')!;
    const first = await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth });
    expect(first.body.status.photos).toBe('none');
    const project = await waitFor(
      async () => {
        const { data } = await graphql(PROJECT_QUERY, { id });
        return data?.project?.status.project === 'editable' && data.project;
      },
      30_000,
      'empty build',
    );
    expect(project.title).toBe('PB-SC-A5-P');
    expect(project.pages.every((page: any) => page.layout === 'blank')).toBe(true);
  });
});
