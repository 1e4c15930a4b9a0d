/**
 * How a product is bound, and what its cover sheet's geometry needs (docs/print-production.md
 * gives the sources of the demo catalogue's values):
 * - `hardcover`: case-wrap. The printed sheet is glued around two greyboards and a spine board and
 *   turned in over their edges (the wrap); a hinge groove runs between each board and the spine.
 * - `softcover`: perfect-bound. The sheet is the back, the spine and the front, scored and glued to
 *   the block; no wrap, no hinge.
 * - `layflat`: a case-wrap hardcover whose leaves are mounted back to back, so each leaf is far
 *   thicker than a sheet of paper and every spread opens flat.
 */
export const BINDINGS = ['hardcover', 'softcover', 'layflat'] as const;
export type Binding = (typeof BINDINGS)[number];

export interface ProductProduction {
  binding: Binding;
  /** Thickness of one leaf (two pages) of the interior, in mm. */
  leafThicknessMm: number;
  /** Thickness of the cover material on each side of the block: greyboard (case-wrap) or card (softcover), in mm. */
  boardThicknessMm: number;
  /** Printed sheet turned in over the boards' edges on every side, in mm (0 for a softcover). */
  wrapMm: number;
  /** Hinge groove between each board and the spine, in mm (0 for a softcover). */
  hingeMm: number;
  /** Below this page count the spine is left blank: binderies set no text on a thinner spine. */
  spineTextMinPages: number;
}

/** A case-wrap binding has a wrap and a hinge; a perfect binding has neither. */
export function isCaseBound(binding: Binding): boolean {
  return binding !== 'softcover';
}
