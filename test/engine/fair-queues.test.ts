import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { startSilentServer, type SilentServer } from '../support/silent-server';
import { waitFor } from '../support/wait';

/** More projects than the build queue has slots per process (10), as in the security review. */
const NOISY_PROJECTS = 12;
const PHOTOS_PER_NOISY_PROJECT = 8;

/**
 * The noisy tenant: one shop generates more projects than the build queue has slots, each with
 * photos on a host that accepts connections and never answers. Another shop's projects must not
 * wait for those downloads to give up: they are built while the noisy shop's builds are still
 * pending. (Ordering, not a stopwatch; the wait is printed for the record.)
 */
describe('fair build queues: a shop whose photo hosts hang does not hold another shop back', () => {
  let api: TestService;
  let silent: SilentServer;
  let photos: PhotoServer;

  beforeAll(async () => {
    // Attempts of 30 s: the noisy builds cannot end before their 60 s deadline, however slow the machine.
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', PHOTO_DOWNLOAD_TIMEOUT: '30s' });
    silent = await startSilentServer();
    photos = await startPhotoServer({ '/good.jpg': { body: await makePhoto({ width: 900, height: 600 }) } });
  });
  afterAll(async () => {
    await api?.stop();
    await silent?.close();
    await photos?.close();
  });

  const generate = async (auth: Record<string, string>, userId: string, photoUrls: string[]) => {
    const response = await post(
      api.url,
      '/v2/generate',
      { userId, sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, photos: photoUrls },
      auth,
    );
    expect(response.status).toBe(200);
    return new URL(response.body.url).searchParams.get('id')!;
  };
  const statuses = async (ids: string[]) => {
    const orm = await api.orm();
    const rows = await orm.em.fork().find(Project, { id: { $in: ids } }, { fields: ['status'] });
    return rows.map((row) => row.status);
  };

  it("builds the quiet shop's projects while the noisy shop's builds are still pending", {
    timeout: 150_000,
  }, async () => {
    const noisy = serviceHeader((await api.createClient('Noisy shop')).credentials.prod);
    const quiet = serviceHeader((await api.createClient('Quiet shop')).credentials.prod);

    const noisyIds: string[] = [];
    for (let project = 0; project < NOISY_PROJECTS; project++) {
      const hanging = Array.from({ length: PHOTOS_PER_NOISY_PROJECT }, (_, photo) =>
        silent.url(`/p${project}-${photo}.jpg`),
      );
      noisyIds.push(await generate(noisy, `noisy-${project}`, hanging));
    }
    // The noisy shop's builds hold their slots, their downloads hanging.
    await waitFor(
      async () =>
        (await statuses(noisyIds)).filter((status) => status === 'building').length >= 4 && silent.connections() >= 4,
      30_000,
      'the noisy builds to hang',
    );

    const started = Date.now();
    const quietIds = [
      await generate(quiet, 'quiet-empty', []),
      await generate(quiet, 'quiet-one-photo', [photos.url('/good.jpg')]),
    ];
    await waitFor(
      async () => (await statuses(quietIds)).every((status) => status === 'editable'),
      120_000,
      'the quiet projects to be editable',
    );
    const waited = Date.now() - started;

    const noisyNow = await statuses(noisyIds);
    console.log(
      `quiet shop's projects editable after ${waited} ms; noisy shop's builds then: ${JSON.stringify(countOf(noisyNow))}`,
    );
    expect(noisyNow.every((status) => status === 'created' || status === 'building')).toBe(true);
  });
});

function countOf(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
