import { describe, expect, it } from 'vitest';
import type { Book } from '../../../src/domain/book';
import { brokenSpread } from '../../../src/domain/book-spreads';
import type { Binding } from '../../../src/domain/print-production';
import { buildBook } from '../../../src/services/projects/book-builder';
import type { BookPhoto } from '../../../src/services/projects/book-photo';

/** A 200 mm square book: a spread prints 400 x 200 mm. */
const FORMAT = { widthMm: 200, heightMm: 200 };

function photo(id: string, position: number, at: string, extra: Partial<BookPhoto> = {}): BookPhoto {
  return { id, position, width: 3000, height: 3000, capturedAt: new Date(at), quality: 0.5, ...extra };
}

/** An event of four photos: `wide` a landscape of 6000 x 3000 (about 380 DPI across a spread), the best of them. */
function event(prefix: string, day: string, wide: Partial<BookPhoto> = {}): BookPhoto[] {
  return [
    photo(`${prefix}1`, 0, `${day}T10:00:00Z`),
    photo(`${prefix}-wide`, 1, `${day}T10:05:00Z`, { width: 6000, height: 3000, quality: 0.9, ...wide }),
    photo(`${prefix}2`, 2, `${day}T10:10:00Z`),
    photo(`${prefix}3`, 3, `${day}T10:15:00Z`),
  ];
}

function build(photos: BookPhoto[], binding: Binding, maxPages = 40): Book {
  return buildBook({
    layoutType: 'smartbook',
    photos,
    minPages: 2,
    maxPages,
    texts: {},
    fallbackTitle: 'PB',
    format: FORMAT,
    binding,
  });
}

const spreadStarts = (book: Book) =>
  book.pages.filter((p) => p.layout === 'spread' && p.photos.length).map((p) => p.number);
const placed = (book: Book) => book.pages.flatMap((p) => p.photos.map((s) => s.photoId)).sort();

describe('smartbook spreads (layflat)', () => {
  const photos = [...event('a', '2026-06-01'), ...event('b', '2026-06-03')];

  it("gives each event's best landscape photo a spread, on a left-hand page, and places every photo once", () => {
    const book = build(photos, 'layflat');
    const starts = spreadStarts(book);
    expect(starts).toHaveLength(2);
    for (const start of starts) {
      expect(start % 2).toBe(0);
      expect(book.pages[start]).toMatchObject({ layout: 'spread', photos: [] });
    }
    expect(book.pages[starts[0] - 1].photos[0]).toMatchObject({ photoId: 'a-wide', x: 0, width: 2 });
    expect(book.pages[starts[1] - 1].photos[0].photoId).toBe('b-wide');
    expect(brokenSpread(book.pages)).toBeUndefined();
    expect(placed(book)).toEqual(photos.map((p) => p.id).sort());
    expect(book.pages.length % 2).toBe(0);
  });

  it('never gives a spread in a hardcover or softcover book: the best photo takes a full page', () => {
    for (const binding of ['hardcover', 'softcover'] as const) {
      const book = build(photos, binding);
      expect(book.pages.some((p) => p.layout === 'spread')).toBe(false);
      expect(book.pages[0]).toMatchObject({ layout: 'full', photos: [{ photoId: 'a-wide' }] });
    }
  });

  it('a photo that would print below 150 DPI across the spread, a portrait, or one with a face on the fold gets no spread', () => {
    // 2000 px over 400 mm: 127 DPI.
    const small = build(event('a', '2026-06-01', { width: 2000, height: 1000 }), 'layflat');
    expect(small.pages.some((p) => p.layout === 'spread')).toBe(false);
    const portrait = build(event('a', '2026-06-01', { width: 3000, height: 4000 }), 'layflat');
    expect(portrait.pages.some((p) => p.layout === 'spread')).toBe(false);
    const faceOnFold = build(
      event('a', '2026-06-01', {
        width: 6000,
        height: 3000,
        faces: [{ x: 0.48, y: 0.3, width: 0.05, height: 0.1, score: 0.9 }],
      }),
      'layflat',
    );
    expect(faceOnFold.pages.some((p) => p.layout === 'spread')).toBe(false);
    expect(faceOnFold.pages[0]).toMatchObject({ layout: 'full', photos: [{ photoId: 'a-wide' }] });
  });

  it('gives way to pages when the spreads would make the book longer than the product allows', () => {
    const roomy = build(photos, 'layflat');
    const tight = build(photos, 'layflat', roomy.pages.length - 2);
    expect(tight.pages.length).toBeLessThanOrEqual(roomy.pages.length - 2);
    expect(brokenSpread(tight.pages)).toBeUndefined();
    expect(placed(tight)).toEqual(photos.map((p) => p.id).sort());
  });
});
