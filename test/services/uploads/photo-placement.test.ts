import { describe, expect, it } from 'vitest';
import type { Book, BookPage } from '../../../src/domain/book';
import { blankPage, placeOnLayout } from '../../../src/services/projects/book-builder';
import { placePhoto } from '../../../src/services/uploads/photo-placement';

function book(...pages: BookPage[]): Book {
  return {
    layoutType: 'fastbook',
    cover: { title: 'T', texts: [] },
    pages: pages.map((p, i) => ({ ...p, number: i + 1 })),
  };
}
const ids = (b: Book) => b.pages.map((p) => `${p.layout}:${p.photos.map((s) => s.photoId).join('+')}`);

describe('where an uploaded photo goes in the book (docs/api.md, Uploads)', () => {
  it('takes the first blank page after the last page with photos', () => {
    const before = book(placeOnLayout('full', ['a']), blankPage(), blankPage(), blankPage());
    expect(ids(placePhoto(before, 'new', 10))).toEqual(['full:a', 'full:new', 'blank:', 'blank:']);
  });

  it('adds two pages at the end while the product has room for them', () => {
    const before = book(placeOnLayout('full', ['a']), placeOnLayout('full', ['b']));
    const after = placePhoto(before, 'new', 4);
    expect(ids(after)).toEqual(['full:a', 'full:b', 'full:new', 'blank:']);
    expect(after.pages.map((p) => p.number)).toEqual([1, 2, 3, 4]);
  });

  it('joins the last page that can take one more when the book is at its largest, and leaves a full book as it is', () => {
    const full = book(placeOnLayout('grid-4', ['a', 'b', 'c', 'd']), placeOnLayout('full', ['e']));
    expect(ids(placePhoto(full, 'new', 2))).toEqual(['grid-4:a+b+c+d', 'two-side-by-side:e+new']);
    const packed = book(placeOnLayout('grid-4', ['a', 'b', 'c', 'd']), placeOnLayout('grid-4', ['e', 'f', 'g', 'h']));
    expect(placePhoto(packed, 'new', 2)).toBe(packed);
  });

  it('places a photo once', () => {
    const before = book(placeOnLayout('full', ['a']), blankPage());
    expect(placePhoto(before, 'a', 10)).toBe(before);
  });
});
