import { describe, expect, it } from 'vitest';
import type { Book, BookPage, PageCaption } from '../../../src/domain/book';
import { movePhoto, placePhotoAt, setPageLayout, unplacePhoto } from '../../../src/services/editor/book-edits';
import { blankPage, placeOnLayout } from '../../../src/services/projects/book-builder';

const CAPTION: PageCaption = { text: 'Summer', font: 'Lora', sizePt: 14, x: 0.1, y: 0.1, width: 0.8 };

function bookOf(...pages: BookPage[]): Book {
  return {
    layoutType: 'default' as Book['layoutType'],
    cover: { title: 'T', texts: [] },
    pages: pages.map((page, i) => ({ ...page, number: i + 1 })),
  };
}
const ids = (book: Book) => book.pages.map((page) => page.photos.map((slot) => slot.photoId));

describe('placePhotoAt and unplacePhoto (pure book edits)', () => {
  const two = { ...placeOnLayout('two-side-by-side', ['a', 'b']), captions: [CAPTION] };
  two.photos[1] = { ...two.photos[1], crop: { x: 0.2, y: 0.3, zoom: 2 } };
  const book = bookOf(two, placeOnLayout('full', ['c']), blankPage(), blankPage());

  it('into a slot: the photo there leaves the book, the slot starts on the automatic crop', () => {
    const next = placePhotoAt(book, 'x', { slot: { page: 1, slot: 1 } });
    expect(ids(next)).toEqual([['a', 'x'], ['c'], [], []]);
    expect(next.pages[0].photos[1].crop).toBeUndefined();
    expect(next.pages[0].captions).toEqual([CAPTION]);
    expect(ids(book)).toEqual([['a', 'b'], ['c'], [], []]); // its input unchanged
  });

  it('onto a page: its free slot (a blank page takes one), the others keep their crops and captions', () => {
    expect(ids(placePhotoAt(book, 'x', { toPage: 3 }))).toEqual([['a', 'b'], ['c'], ['x'], []]);
    expect(placePhotoAt(book, 'x', { toPage: 3 }).pages[2].layout).toBe('full');
    expect(() => placePhotoAt(book, 'x', { toPage: 1 })).toThrow(/no free slot/);
    expect(() => placePhotoAt(book, 'x', { toPage: 2 })).toThrow(/no free slot/);
  });

  it('a photo already in the book moves instead of showing twice', () => {
    expect(ids(placePhotoAt(book, 'c', { slot: { page: 1, slot: 0 } }))).toEqual([['c', 'b'], ['a'], [], []]);
    expect(ids(placePhotoAt(book, 'c', { toPage: 3 }))).toEqual([['a', 'b'], [], ['c'], []]);
    expect(() => placePhotoAt(book, 'a', { slot: { page: 1, slot: 0 } })).toThrow(/already/);
  });

  it('refuses neither or both targets, a page or slot that is not there, naming the field', () => {
    const pathOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as { errors: { path: string }[] }).errors[0].path;
      }
      return 'no error';
    };
    expect(pathOf(() => placePhotoAt(book, 'x', {} as never))).toBe('slot');
    expect(pathOf(() => placePhotoAt(book, 'x', { slot: { page: 1, slot: 0 }, toPage: 3 } as never))).toBe('slot');
    expect(pathOf(() => placePhotoAt(book, 'x', { slot: { page: 9, slot: 0 } }))).toBe('slot.page');
    expect(pathOf(() => placePhotoAt(book, 'x', { slot: { page: 1, slot: 2 } }))).toBe('slot.slot');
    expect(pathOf(() => placePhotoAt(book, 'x', { toPage: 0 }))).toBe('toPage');
    expect(pathOf(() => unplacePhoto(book, { page: 3, slot: 0 }))).toBe('slot.slot');
  });

  it('out of the book: the page closes the gap and keeps its captions and the crops that stay, or becomes blank', () => {
    const out = unplacePhoto(book, { page: 1, slot: 0 });
    expect(ids(out)).toEqual([['b'], ['c'], [], []]);
    expect(out.pages[0].photos[0].crop).toEqual({ x: 0.2, y: 0.3, zoom: 2 });
    expect(out.pages[0].captions).toEqual([CAPTION]);
    const emptied = unplacePhoto(book, { page: 2, slot: 0 });
    expect(emptied.pages[1]).toMatchObject({ layout: 'blank', photos: [] });
  });

  it("moving a photo or changing a page's layout keeps the page's captions", () => {
    expect(movePhoto(book, { page: 1, slot: 0 }, 3).pages[0].captions).toEqual([CAPTION]);
    expect(setPageLayout(book, 1, 'grid-4').pages[0].captions).toEqual([CAPTION]);
  });
});
