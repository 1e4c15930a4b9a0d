/**
 * Where on a printed page nothing that matters may lie: the cut may drift by a millimetre or two at
 * the trim (and the bleed beyond it is cut away), and at the binding edge the gutter swallows part
 * of the page as it curves into the spine. Shared by the print render (texts, captions) and the
 * automatic crop (faces), so both keep the same distance.
 */

/** Printers ask to keep text and faces this far inside the trim. */
export const SAFE_MARGIN_MM = 4;
/**
 * Kept clear at the binding edge: a case-bound or perfect-bound page curves into the spine over
 * 10–15 mm; a layflat opens flat but still folds there. 12 mm for every binding.
 */
export const GUTTER_SAFE_MM = 12;

/** Which side of a spread a page is: page 1 is a right-hand page (recto), so odd pages bind on their left edge. */
export type PageSide = 'left' | 'right';

export function pageSide(pageNumber: number): PageSide {
  return pageNumber % 2 === 1 ? 'right' : 'left';
}

/** A rectangle in 0..1 of a slot's width and height. */
export interface SlotArea {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of a slot (`x`, `y`, `width`, `height` in 0..1 of the trim box, as book slots are; it may
 * reach into the bleed) that lies in the page's safe area, in 0..1 of the slot: the trim less
 * SAFE_MARGIN_MM on the outer edges and GUTTER_SAFE_MM on the binding edge. A slot that lies wholly
 * outside the safe area answers the whole slot: there is nowhere better in it. A spread's slot has
 * two safe areas, one each side of the fold (spreadSafeAreas).
 */
export function slotSafeArea(
  slot: { x: number; y: number; width: number; height: number },
  trim: { widthMm: number; heightMm: number },
  side: PageSide,
): SlotArea {
  const safeLeft = (side === 'right' ? GUTTER_SAFE_MM : SAFE_MARGIN_MM) / trim.widthMm;
  const safeRight = 1 - (side === 'left' ? GUTTER_SAFE_MM : SAFE_MARGIN_MM) / trim.widthMm;
  return areaWithin(slot, trim, safeLeft, safeRight) ?? { left: 0, top: 0, right: 1, bottom: 1 };
}

/** The safe areas of a slot on `page`: one, or a spread's two (spreadSafeAreas). */
export function pageSlotSafeAreas(
  slot: { x: number; y: number; width: number; height: number },
  trim: { widthMm: number; heightMm: number },
  page: { number: number; layout: string },
): SlotArea[] {
  return page.layout === 'spread' ? spreadSafeAreas(slot, trim) : [slotSafeArea(slot, trim, pageSide(page.number))];
}

/**
 * The safe areas of a spread's slot (its `x` and `width` in page widths, 0..2 the opening): the left
 * page's and the right page's, each clear of the trim and of GUTTER_SAFE_MM on either side of the
 * fold in the middle. A face is safe inside either, never across the fold.
 */
export function spreadSafeAreas(
  slot: { x: number; y: number; width: number; height: number },
  trim: { widthMm: number; heightMm: number },
): SlotArea[] {
  const outer = SAFE_MARGIN_MM / trim.widthMm;
  const fold = GUTTER_SAFE_MM / trim.widthMm;
  const areas = [areaWithin(slot, trim, outer, 1 - fold), areaWithin(slot, trim, 1 + fold, 2 - outer)];
  const found = areas.filter((area): area is SlotArea => !!area);
  return found.length ? found : [{ left: 0, top: 0, right: 1, bottom: 1 }];
}

/** The part of the slot between `safeLeft` and `safeRight` (page widths) and the safe top and bottom, in 0..1 of the slot. */
function areaWithin(
  slot: { x: number; y: number; width: number; height: number },
  trim: { widthMm: number; heightMm: number },
  safeLeft: number,
  safeRight: number,
): SlotArea | undefined {
  const safeTop = SAFE_MARGIN_MM / trim.heightMm;
  const safeBottom = 1 - SAFE_MARGIN_MM / trim.heightMm;
  const area = {
    left: (Math.max(slot.x, safeLeft) - slot.x) / slot.width,
    right: (Math.min(slot.x + slot.width, safeRight) - slot.x) / slot.width,
    top: (Math.max(slot.y, safeTop) - slot.y) / slot.height,
    bottom: (Math.min(slot.y + slot.height, safeBottom) - slot.y) / slot.height,
  };
  return area.right > area.left && area.bottom > area.top ? area : undefined;
}

/**
 * The safe area of a front cover of `trim` size (the front panel as the customer sees it: the
 * cover preview), in 0..1 of it: SAFE_MARGIN_MM inside each edge, the fold at the spine on one side
 * and the trim (or the board's edge, where the wrap turns over it) on the others.
 */
export function coverSafeArea(trim: { widthMm: number; heightMm: number }): SlotArea {
  const x = SAFE_MARGIN_MM / trim.widthMm;
  const y = SAFE_MARGIN_MM / trim.heightMm;
  return { left: x, top: y, right: 1 - x, bottom: 1 - y };
}
