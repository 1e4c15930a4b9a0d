import { type BookPage, PAGE_LAYOUTS, type PageLayout } from '../../domain/book';
import { effectiveDpi, LOW_DPI } from '../../imaging/print/effective-dpi';
import type { BookPhoto } from './book-photo';
import { layoutSlots, placeOnLayout, spreadPages } from './page-layouts';
import { spreadKeepsFaces } from '../../domain/book-spreads';
import { splitIntoEvents } from './photo-events';

type Score = (photo: BookPhoto) => number;
type Format = { widthMm: number; heightMm: number } | undefined;

/** Photos a page holds, from airy to dense: tried in turn until the book fits the product's maximum. */
const DENSITIES = [2, 3, 4, 6] as const;
/** An event of at least this many photos opens with its best one on a page of its own. */
const HERO_EVENT_PHOTOS = 3;
/** Page sizes with a layout; a page of 5 is laid out as 3 + 2. */
const PAGE_SIZES = new Set([1, 2, 3, 4, 6]);
const MM_PER_INCH = 25.4;
/**
 * What a point of score (0..1) out of place costs against the shape cost (|ln| of aspect ratios): a
 * photo 0.25 above the rest of its page earns a hero slot over a grid whose slots fit a little better.
 */
const IMPORTANCE_WEIGHT = 4;

/**
 * The smartbook's pages from the photos its curation kept, in story order: split into events
 * (photo-events.ts), each event starting on a new page, opened by its best photo on a page of its own
 * (when the event has HERO_EVENT_PHOTOS or more and the photo prints at LOW_DPI or more on it),
 * the rest in capture order, evenly spread over pages of the first density of DENSITIES that keeps
 * the book within `maxPages` (an event whose photos would print below LOW_DPI at that density goes
 * denser, to smaller slots, when that lifts them). Each page's layout is fitted to its photos (chooseLayout).
 * With `spreads` (a layflat product) such an event's best landscape photo, when it is good enough
 * (spreadPhoto), takes a spread instead of a page: on the next left-hand page, after one page of its
 * event's other photos when the event would start on a right-hand page (a blank page when it has
 * none). When the spreads make the book too long they give way to pages, then the openers do. When even
 * the densest pages with no opener exceed `maxPages`, events give way to pages of six in order and
 * photos past the last page stay unplaced (in the project, for the editor).
 */
export function smartbookPages(
  photos: BookPhoto[],
  maxPages: number,
  score: Score,
  format: Format,
  spreads = false,
): BookPage[] {
  const events = splitIntoEvents(photos);
  const tries = [
    ...(spreads ? [{ heroes: true, spreads: true }] : []),
    { heroes: true, spreads: false },
    { heroes: false, spreads: false },
  ];
  for (const options of tries) {
    for (const density of DENSITIES) {
      const pages: BookPage[] = [];
      for (const event of events) pages.push(...eventPages(event, density, options, score, format, pages.length));
      if (pages.length <= maxPages) return pages;
    }
  }
  const pages: BookPage[] = [];
  for (let i = 0; i < photos.length && pages.length < maxPages; i += 6)
    pages.push(...chunk(photos.slice(i, i + 6), 6).map((p) => chooseLayout(p, score, format)));
  return pages.slice(0, maxPages);
}

function eventPages(
  event: BookPhoto[],
  density: number,
  options: { heroes: boolean; spreads: boolean },
  score: Score,
  format: Format,
  pagesBefore: number,
): BookPage[] {
  const large = options.heroes && event.length >= HERO_EVENT_PHOTOS;
  const spread = large && options.spreads ? spreadPhoto(event, score, format) : undefined;
  const hero = large && !spread ? best(event, score) : undefined;
  const opener = hero && fitsAtDpi(hero, layoutSlots('full')[0], format) ? hero : undefined;
  const rest = event.filter((p) => p !== opener && p !== spread);
  // Photos too small for this density's slots go denser (smaller slots) while a denser one exists.
  let laid = chunk(rest, density).map((p) => fittedLayout(p, score, format));
  for (const denser of DENSITIES.filter((d) => d > density)) {
    if (laid.every((page) => page.lowestDpi >= LOW_DPI)) break;
    const again = chunk(rest, denser).map((p) => fittedLayout(p, score, format));
    if (Math.min(...again.map((p) => p.lowestDpi)) > Math.min(...laid.map((p) => p.lowestDpi))) laid = again;
  }
  const pages = laid.map((p) => p.page);
  if (!spread) return [...(opener ? [placeOnLayout('full', [opener.id])] : []), ...pages];
  // Page n + 1 is the next page; a spread starts on an even (left-hand) one.
  if ((pagesBefore + 1) % 2 === 0) return [...spreadPages(spread.id), ...pages];
  const [first, ...others] = pages;
  return [first ?? placeOnLayout('blank', []), ...spreadPages(spread.id), ...others];
}

/** A landscape photo is at least this much wider than high: a spread (2:1 on a square book) crops the rest. */
const SPREAD_MIN_ASPECT = 1.3;

/**
 * The photo of an event that takes a spread: its best-scored landscape photo, when it is good
 * enough: scored at least the event's median, printing at LOW_DPI or more across both pages (the
 * preflight's floor), and its automatic crop keeping every face off the fold (book-spreads.ts).
 */
function spreadPhoto(event: BookPhoto[], score: Score, format: Format): BookPhoto | undefined {
  if (!format) return undefined;
  const candidate = best(
    event.filter((p) => p.width >= SPREAD_MIN_ASPECT * p.height),
    score,
  );
  if (!candidate) return undefined;
  const scores = event.map(score).sort((a, b) => a - b);
  const median = scores[Math.floor((scores.length - 1) / 2)];
  if (score(candidate) < median) return undefined;
  if (!fitsAtDpi(candidate, layoutSlots('spread')[0], format)) return undefined;
  return spreadKeepsFaces(candidate, candidate.faces, format) ? candidate : undefined;
}

/** `photos` in order over ceil(n / density) pages of nearly equal size, each a size some layout has. */
function chunk(photos: BookPhoto[], density: number): BookPhoto[][] {
  if (photos.length === 0) return [];
  const count = Math.ceil(photos.length / density);
  const pages: BookPhoto[][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.floor(photos.length / count) + (i < photos.length % count ? 1 : 0);
    const page = photos.slice(start, start + size);
    start += size;
    if (PAGE_SIZES.has(page.length)) pages.push(page);
    else pages.push(page.slice(0, 3), page.slice(3));
  }
  return pages;
}

/**
 * The layout for a page of photos: among the layouts with exactly as many slots, the one whose
 * slots best match the photos' shapes (sum of |ln(slot aspect / photo aspect)|: the less a crop
 * cuts, the better) and its importance: the most important photo (highest score) belongs in a
 * layout's one largest slot, and a layout without one (a grid) costs as much as the best photo
 * stands out above the second (both weighted by IMPORTANCE_WEIGHT); a
 * layout that would print a photo below LOW_DPI (the preflight's "low resolution" warning) is taken
 * only when every layout would, then the one with the highest lowest DPI. Each photo goes to the
 * slot of the best assignment (all orders tried for up to four photos); ties go to the earlier
 * layout of PAGE_LAYOUTS.
 */
export function chooseLayout(photos: BookPhoto[], score: Score, format: Format): BookPage {
  return fittedLayout(photos, score, format).page;
}

function fittedLayout(photos: BookPhoto[], score: Score, format: Format): { page: BookPage; lowestDpi: number } {
  // A spread is given by eventPages to one photo of an event, never chosen for a page's photos.
  const candidates = PAGE_LAYOUTS.filter(
    (layout) => layout !== 'spread' && layoutSlots(layout).length === photos.length,
  );
  let chosen: { layout: PageLayout; order: BookPhoto[]; cost: number; lowestDpi: number } | undefined;
  for (const layout of candidates) {
    const slots = layoutSlots(layout);
    const areas = slots.map((s) => s.width * s.height);
    const largest = Math.max(...areas);
    // Only a layout with one largest slot has a hero place; in a grid every slot is alike.
    const heroSlot = areas.filter((a) => a === largest).length === 1 ? areas.indexOf(largest) : -1;
    const scores = photos.map(score).sort((a, b) => b - a);
    const top = scores[0];
    // How far the page's best photo stands out: what a layout without a hero place costs.
    const standout = top - (scores[1] ?? top);
    for (const order of photos.length <= 4 ? permutations(photos) : [photos]) {
      let cost = 0;
      let lowestDpi = Number.POSITIVE_INFINITY;
      order.forEach((photo, i) => {
        const slot = slots[i];
        cost += Math.abs(Math.log(slotAspect(slot, format) / (photo.width / photo.height)));
        if (i === heroSlot) cost += IMPORTANCE_WEIGHT * (top - score(photo));
        lowestDpi = Math.min(lowestDpi, dpiIn(photo, slot, format));
      });
      if (heroSlot < 0) cost += IMPORTANCE_WEIGHT * standout;
      // Below the floor: worse than any layout above it, and the lower the worse.
      if (lowestDpi < LOW_DPI) cost += 1000 + (LOW_DPI - lowestDpi);
      if (!chosen || cost < chosen.cost - 1e-9) chosen = { layout, order, cost, lowestDpi };
    }
  }
  if (!chosen) throw new Error(`no page layout has ${photos.length} slots`);
  return {
    page: placeOnLayout(
      chosen.layout,
      chosen.order.map((p) => p.id),
    ),
    lowestDpi: chosen.lowestDpi,
  };
}

/**
 * The cover photo: the best-scored photo whose shape is within 1.5 times the front cover's (a
 * landscape photo on a portrait cover would lose half of itself), else the best-scored of all.
 */
export function coverPhoto(photos: BookPhoto[], score: Score, format: Format): BookPhoto | undefined {
  const cover = format ? format.widthMm / format.heightMm : 1;
  const fitting = photos.filter((p) => Math.abs(Math.log(p.width / p.height / cover)) <= Math.log(1.5));
  return best(fitting, score) ?? best(photos, score);
}

function best(photos: BookPhoto[], score: Score): BookPhoto | undefined {
  return [...photos].sort((a, b) => score(b) - score(a) || a.position - b.position)[0];
}

type Slot = { width: number; height: number };

function slotAspect(slot: Slot, format: Format): number {
  return (slot.width * (format?.widthMm ?? 1)) / (slot.height * (format?.heightMm ?? 1));
}

function dpiIn(photo: BookPhoto, slot: Slot, format: Format): number {
  if (!format || !(photo.width > 0 && photo.height > 0)) return Number.POSITIVE_INFINITY;
  return effectiveDpi(photo, {
    width: (slot.width * format.widthMm) / MM_PER_INCH,
    height: (slot.height * format.heightMm) / MM_PER_INCH,
  });
}

function fitsAtDpi(photo: BookPhoto, slot: Slot, format: Format): boolean {
  return dpiIn(photo, slot, format) >= LOW_DPI;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
