import type { BookPage, PageLayout, PhotoSlot } from '../../domain/book';

const MARGIN = 0.06;
const GUTTER = 0.03;

/** A page of `layout` with the photos in its slots, in order; the layout must have room for them. */
export function placeOnLayout(layout: PageLayout, photoIds: string[]): BookPage {
  const rects = layoutSlots(layout);
  return {
    number: 0,
    layout,
    photos: photoIds.map((photoId, i) => ({ photoId, ...rects[i] })),
    texts: [],
  };
}

/** A spread of one photo: its left-hand page with the slot across the opening, and the right-hand page that continues it. */
export function spreadPages(photoId: string): [BookPage, BookPage] {
  return [placeOnLayout('spread', [photoId]), { number: 0, layout: 'spread', photos: [], texts: [] }];
}

/** The slots of each page layout, relative to the page (0..1), in reading order. */
export function layoutSlots(layout: PageLayout): Omit<PhotoSlot, 'photoId'>[] {
  const inner = 1 - 2 * MARGIN;
  const half = (inner - GUTTER) / 2;
  const third = (inner - 2 * GUTTER) / 3;
  // A hero over (or beside) a row of smaller photos takes 60% of the room.
  const large = (inner - GUTTER) * 0.6;
  const small = inner - GUTTER - large;
  const rect = (x: number, y: number, width: number, height: number) => ({
    x: round(x),
    y: round(y),
    width: round(width),
    height: round(height),
  });
  const after = (size: number) => MARGIN + size + GUTTER;
  switch (layout) {
    case 'full':
      return [rect(MARGIN, MARGIN, inner, inner)];
    case 'two-stacked':
      return [rect(MARGIN, MARGIN, inner, half), rect(MARGIN, after(half), inner, half)];
    case 'two-side-by-side':
      return [rect(MARGIN, MARGIN, half, inner), rect(after(half), MARGIN, half, inner)];
    case 'grid-4':
      return [0, 1, 2, 3].map((i) =>
        rect(MARGIN + (i % 2) * (half + GUTTER), MARGIN + Math.floor(i / 2) * (half + GUTTER), half, half),
      );
    case 'centred':
      return [rect(0.2, 0.2, 0.6, 0.6)];
    case 'hero-left':
      return [
        rect(MARGIN, MARGIN, half, inner),
        rect(after(half), MARGIN, half, half),
        rect(after(half), after(half), half, half),
      ];
    case 'hero-top':
      return [
        rect(MARGIN, MARGIN, inner, large),
        rect(MARGIN, after(large), half, small),
        rect(after(half), after(large), half, small),
      ];
    case 'three-columns':
      return [0, 1, 2].map((i) => rect(MARGIN + i * (third + GUTTER), MARGIN, third, inner));
    case 'three-rows':
      return [0, 1, 2].map((i) => rect(MARGIN, MARGIN + i * (third + GUTTER), inner, third));
    case 'hero-top-three':
      return [
        rect(MARGIN, MARGIN, inner, large),
        ...[0, 1, 2].map((i) => rect(MARGIN + i * (third + GUTTER), after(large), third, small)),
      ];
    case 'hero-left-three':
      return [
        rect(MARGIN, MARGIN, large, inner),
        ...[0, 1, 2].map((i) => rect(after(large), MARGIN + i * (third + GUTTER), small, third)),
      ];
    case 'grid-6':
      return [0, 1, 2, 3, 4, 5].map((i) =>
        rect(MARGIN + (i % 2) * (half + GUTTER), MARGIN + Math.floor(i / 2) * (third + GUTTER), half, third),
      );
    case 'spread':
      // The whole opening, trim to trim (0..2 page widths); the print render runs it on into the bleed.
      return [rect(0, 0, 2, 1)];
    case 'blank':
      return [];
  }
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
