import { describe, expect, it } from 'vitest';
import { analyzePhoto } from '../../../src/imaging/photo-analysis';
import { buildBook } from '../../../src/services/projects/book-builder';
import { curatePhotos, hashDistance } from '../../../src/services/projects/photo-curation';
import { splitIntoEvents } from '../../../src/services/projects/photo-events';
import { chooseLayout } from '../../../src/services/projects/smartbook-pages';
import { layoutSlots } from '../../../src/services/projects/page-layouts';
import { PAGE_LAYOUTS } from '../../../src/domain/book';
import { makeLabelledSet, type LabelledPhoto } from '../../support/curation-set';

async function analysed(set: LabelledPhoto[]) {
  return Promise.all(
    set.map(async (photo, position) => {
      const a = await analyzePhoto(photo.bytes);
      return {
        label: photo,
        id: photo.name,
        position,
        width: a.width,
        height: a.height,
        capturedAt: a.capturedAt,
        quality: a.quality,
        sharpness: a.sharpness,
        exposure: a.exposure,
        perceptualHash: a.perceptualHash,
      };
    }),
  );
}

const A4 = { widthMm: 210, heightMm: 297 };

describe('smartbook curation on a labelled roll (sharp-made scenes)', () => {
  it('keeps the original of each shot: re-encoded and cropped copies are duplicates, blurred copies blurry', async () => {
    const photos = await analysed(
      await makeLabelledSet({
        scenes: Array.from({ length: 4 }, () => ({ copies: ['reencoded', 'cropped', 'blurred'] })),
        events: null,
      }),
    );
    const curation = curatePhotos(photos);
    for (const photo of photos) {
      const decision = curation.get(photo.id)!;
      const original = photos.find((p) => p.label.shot === photo.label.shot && !p.label.copy)!;
      if (!photo.label.copy)
        expect(decision, photo.id).toMatchObject({ kept: true, reason: 'kept', groupId: photo.id });
      else
        expect(decision, photo.id).toMatchObject({
          kept: false,
          reason: photo.label.copy === 'blurred' ? 'blurry' : 'duplicate',
          groupId: original.id,
        });
    }
  });

  it('reduces a burst to its best, and a long burst to its best two when they differ', async () => {
    const photos = await analysed(
      await makeLabelledSet({ scenes: [{ copies: [], burst: 3 }, { copies: [] }], events: 1 }),
    );
    const curation = curatePhotos(photos);
    const burst = photos.filter((p) => p.label.burst);
    expect(burst).toHaveLength(3);
    const kept = burst.filter((p) => curation.get(p.id)!.kept);
    expect(kept).toHaveLength(1);
    const best = [...burst].sort((a, b) => b.quality - a.quality)[0];
    expect(kept[0].id).toBe(best.id);
    for (const p of burst.filter((p) => p !== best))
      expect(curation.get(p.id)).toMatchObject({ kept: false, reason: 'burst', groupId: best.id });
    const lone = photos.find((p) => !p.label.burst)!;
    expect(curation.get(lone.id)).toMatchObject({ kept: true, reason: 'kept', groupId: null });
  });

  it('keeps a blurred shot that has no better photo of its moment, demoted, and leaves out a dark one beside a good one', async () => {
    const photos = await analysed(
      await makeLabelledSet({ scenes: [{ copies: [], loneBlurred: true }, { copies: [] }], events: 2 }),
    );
    const curation = curatePhotos(photos);
    const blurred = photos.find((p) => p.label.blurred)!;
    expect(curation.get(blurred.id)).toMatchObject({ kept: true, reason: 'blurry' });
    expect(curation.get(blurred.id)!.score).toBeCloseTo(blurred.quality / 2, 3);

    // The same moment twice: one frame nearly black. The good one stays, the dark one goes.
    const [good] = photos.filter((p) => !p.label.blurred);
    const dark = {
      ...good,
      id: 'dark',
      position: 9,
      exposure: 0.05,
      quality: good.quality * 0.5,
      perceptualHash: 'f'.repeat(32),
    };
    const again = curatePhotos([good, dark]);
    expect(again.get('dark')).toMatchObject({ kept: false, reason: 'exposure' });
    expect(again.get(good.id)).toMatchObject({ kept: true, reason: 'kept' });
    // Alone, the dark one is kept, demoted.
    expect(curatePhotos([dark]).get('dark')).toMatchObject({ kept: true, reason: 'exposure' });
  });

  it('lays out only the kept photos; the same photos as a fastbook keep every one', async () => {
    const photos = await analysed(
      await makeLabelledSet({
        scenes: Array.from({ length: 4 }, () => ({ copies: ['reencoded', 'blurred'] })),
        events: null,
      }),
    );
    const curation = curatePhotos(photos);
    const input = { photos, minPages: 2, maxPages: 100, texts: {}, fallbackTitle: 'PB', format: A4 };
    const smart = buildBook({ ...input, layoutType: 'smartbook', curation });
    const placed = smart.pages.flatMap((p) => p.photos.map((s) => s.photoId)).sort();
    expect(placed).toEqual(
      photos
        .filter((p) => !p.label.copy)
        .map((p) => p.id)
        .sort(),
    );
    expect(photos.filter((p) => !p.label.copy).map((p) => p.id)).toContain(smart.cover.photoId);
    const fast = buildBook({ ...input, layoutType: 'fastbook' });
    expect(fast.pages.flatMap((p) => p.photos)).toHaveLength(12);
  });
});

describe('the story in order', () => {
  const photo = (id: string, position: number, at: string | null, extra: object = {}) => ({
    id,
    position,
    width: 4000,
    height: 3000,
    capturedAt: at ? new Date(at) : null,
    quality: 0.8,
    ...extra,
  });

  it('orders by capture time against the upload order and starts a new page where hours pass', () => {
    // Uploaded newest first; two outings five hours apart.
    const photos = [
      photo('e', 0, '2026-06-01T15:10:00Z'),
      photo('d', 1, '2026-06-01T15:00:00Z'),
      photo('c', 2, '2026-06-01T10:20:00Z'),
      photo('b', 3, '2026-06-01T10:10:00Z'),
      photo('a', 4, '2026-06-01T10:00:00Z'),
    ];
    const book = buildBook({
      layoutType: 'smartbook',
      photos,
      minPages: 2,
      maxPages: 100,
      texts: {},
      fallbackTitle: 'PB',
    });
    const order = book.pages.flatMap((p) => p.photos.map((s) => s.photoId));
    expect(order.slice().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    // The first event's photos all come before the second's, and no page mixes the two.
    expect(order.indexOf('c')).toBeLessThan(order.indexOf('d'));
    for (const page of book.pages) {
      const ids = page.photos.map((s) => s.photoId);
      expect(ids.some((id) => 'abc'.includes(id)) && ids.some((id) => 'de'.includes(id))).toBe(false);
    }
    const events = splitIntoEvents([...photos].reverse());
    expect(events.map((e) => e.map((p) => p.id))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('starts an event where GPS moves far without a pause', () => {
    const photos = [
      photo('a', 0, '2026-06-01T10:00:00Z', { latitude: 48.85, longitude: 2.35 }),
      photo('b', 1, '2026-06-01T10:20:00Z', { latitude: 48.86, longitude: 2.34 }),
      photo('c', 2, '2026-06-01T10:40:00Z', { latitude: 49.44, longitude: 1.1 }),
    ];
    expect(splitIntoEvents(photos).map((e) => e.map((p) => p.id))).toEqual([['a', 'b'], ['c']]);
  });

  it('gives an event of three or more its best photo on a page of its own, first', () => {
    const photos = ['a', 'b', 'c', 'd'].map((id, i) =>
      photo(id, i, `2026-06-01T10:0${i}:00Z`, { quality: id === 'c' ? 0.95 : 0.6 }),
    );
    const book = buildBook({
      layoutType: 'smartbook',
      photos,
      minPages: 2,
      maxPages: 100,
      texts: {},
      fallbackTitle: 'PB',
      format: A4,
    });
    expect(book.pages[0]).toMatchObject({ layout: 'full', photos: [{ photoId: 'c' }] });
  });

  it('puts the cover on the best photo of the cover shape', () => {
    const photos = [
      photo('wide', 0, null, { quality: 0.95 }),
      photo('tall', 1, null, { quality: 0.7, width: 3000, height: 4000 }),
    ];
    const input = {
      layoutType: 'smartbook' as const,
      photos,
      minPages: 2,
      maxPages: 100,
      texts: {},
      fallbackTitle: 'PB',
    };
    expect(buildBook({ ...input, format: A4 }).cover.photoId).toBe('tall');
    expect(buildBook({ ...input, format: { widthMm: 297, heightMm: 210 } }).cover.photoId).toBe('wide');
  });
});

describe('layouts that fit', () => {
  it('has at least twelve layouts, each slot inside the page and none overlapping', () => {
    expect(PAGE_LAYOUTS.length).toBeGreaterThanOrEqual(12);
    for (const layout of PAGE_LAYOUTS) {
      const slots = layoutSlots(layout);
      for (const s of slots) {
        expect(s.x).toBeGreaterThanOrEqual(0);
        expect(s.y).toBeGreaterThanOrEqual(0);
        // A spread's one slot spans the opening: two page widths.
        expect(s.x + s.width).toBeLessThanOrEqual(layout === 'spread' ? 2 : 1);
        expect(s.y + s.height).toBeLessThanOrEqual(1);
      }
      for (let i = 0; i < slots.length; i++)
        for (let j = i + 1; j < slots.length; j++) {
          const [a, b] = [slots[i], slots[j]];
          const overlap =
            a.x < b.x + b.width - 1e-6 &&
            b.x < a.x + a.width - 1e-6 &&
            a.y < b.y + b.height - 1e-6 &&
            b.y < a.y + a.height - 1e-6;
          expect(overlap, `${layout} slots ${i} and ${j}`).toBe(false);
        }
    }
  });

  const shaped = (id: string, w: number, h: number, quality = 0.7) => ({
    id,
    position: Number(id.slice(1)),
    width: w,
    height: h,
    capturedAt: new Date(`2026-06-01T10:0${id.slice(1)}:00Z`),
    quality,
  });

  it('chooses the layout by the photos’ orientations and puts the most important in the largest slot', () => {
    const A4_LANDSCAPE = { widthMm: 297, heightMm: 210 };
    const on = (format: typeof A4, photos: ReturnType<typeof shaped>[]) =>
      chooseLayout(photos, (p) => p.quality, format);
    // Phone portraits (9:16) side by side on a landscape page; panoramas (2.4:1) stacked on a portrait one.
    expect(
      on(A4_LANDSCAPE, [shaped('p1', 2250, 4000), shaped('p2', 2250, 4000), shaped('p3', 2250, 4000)]).layout,
    ).toBe('three-columns');
    expect(on(A4, [shaped('p1', 4800, 2000), shaped('p2', 4800, 2000), shaped('p3', 4800, 2000)]).layout).toBe(
      'three-rows',
    );
    // Two landscapes and an important portrait: the portrait in the tall hero slot beside them.
    const mixed = on(A4_LANDSCAPE, [
      shaped('p1', 4000, 3000),
      shaped('p2', 4000, 3000),
      shaped('p3', 3000, 4500, 0.95),
    ]);
    expect(mixed.layout).toBe('hero-left');
    // Four landscapes on a landscape page, one far more important: a wide hero over three.
    const four = on(A4_LANDSCAPE, [
      shaped('p1', 4000, 3000),
      shaped('p2', 4000, 3000),
      shaped('p3', 4000, 3000, 0.95),
      shaped('p4', 4000, 3000),
    ]);
    expect(four.photos[0].photoId).toBe('p3');
    expect(mixed.photos[0].photoId).toBe('p3');
  });

  it('places no photo below the preflight’s low-resolution floor (150 DPI) when a layout avoids it', () => {
    // 1200 x 900 px: 145 DPI over a full A4 page's width (8.3 in × 0.88), fine in a smaller slot.
    const small = shaped('p1', 1200, 900, 0.9);
    const others = [shaped('p2', 4000, 3000), shaped('p3', 4000, 3000)];
    const book = buildBook({
      layoutType: 'smartbook',
      photos: [small, ...others],
      minPages: 2,
      maxPages: 100,
      texts: {},
      fallbackTitle: 'PB',
      format: A4,
    });
    const slot = book.pages.flatMap((p) => p.photos).find((s) => s.photoId === 'p1')!;
    const dpi = Math.min(1200 / ((slot.width * 210) / 25.4), 900 / ((slot.height * 297) / 25.4));
    expect(dpi).toBeGreaterThanOrEqual(150);
    expect(book.pages.some((p) => p.layout === 'full' && p.photos[0]?.photoId === 'p1')).toBe(false);
  });
});

describe('perceptual hash', () => {
  it('groups a recoloured copy with its original, one of the two kept', async () => {
    const photos = await analysed(await makeLabelledSet({ scenes: [{ copies: ['recoloured'] }], events: null }));
    const curation = curatePhotos(photos);
    const decisions = photos.map((p) => curation.get(p.id)!);
    expect(decisions.filter((d) => d.kept)).toHaveLength(1);
    const kept = photos.find((p) => curation.get(p.id)!.kept)!;
    expect(decisions.every((d) => d.groupId === kept.id)).toBe(true);
    expect(decisions.filter((d) => !d.kept)).toMatchObject([{ reason: 'duplicate' }]);
  });

  it('puts copies close and distinct scenes far', async () => {
    const photos = await analysed(
      await makeLabelledSet({
        scenes: Array.from({ length: 3 }, () => ({ copies: ['reencoded', 'cropped', 'recoloured'] })),
        events: null,
      }),
    );
    for (const p of photos.filter((x) => x.label.copy)) {
      const original = photos.find((x) => x.label.shot === p.label.shot && !x.label.copy)!;
      expect(hashDistance(p.perceptualHash, original.perceptualHash)).toBeLessThanOrEqual(20);
    }
    const originals = photos.filter((x) => !x.label.copy);
    for (let i = 0; i < originals.length; i++)
      for (let j = i + 1; j < originals.length; j++)
        expect(hashDistance(originals[i].perceptualHash, originals[j].perceptualHash)).toBeGreaterThan(30);
  });
});

describe('copies of one shot', () => {
  it('an undated copy between two dated shots does not make them one shot', () => {
    const base = { width: 4000, height: 3000, quality: 0.8, sharpness: 0.8, exposure: 1 };
    const hash = (flip: number) =>
      (BigInt(`0x${'a'.repeat(32)}`) ^ ((1n << BigInt(flip)) - 1n)).toString(16).padStart(32, '0');
    // A and B are 16 bits apart, the undated U 8 bits from each: one group would hold both shots.
    const photos = [
      { ...base, id: 'A', position: 0, capturedAt: new Date('2026-06-01T10:00:00Z'), perceptualHash: hash(0) },
      { ...base, id: 'U', position: 1, capturedAt: null, perceptualHash: hash(8), width: 2000, height: 1500 },
      { ...base, id: 'B', position: 2, capturedAt: new Date('2026-06-01T11:00:00Z'), perceptualHash: hash(16) },
    ];
    const curation = curatePhotos(photos);
    expect(curation.get('A')).toMatchObject({ kept: true });
    expect(curation.get('B')).toMatchObject({ kept: true });
    expect(curation.get('U')).toMatchObject({ kept: false, reason: 'duplicate', groupId: 'A' });
  });
});
