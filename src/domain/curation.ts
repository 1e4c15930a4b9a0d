/**
 * Why a smartbook kept a photo or left it out (docs/api.md, Curation). A photo left out stays in
 * the project: the customer can place it again in the editor.
 * - `duplicate`: a copy of a better photo (re-encoded, resized, lightly cropped or recoloured);
 * - `burst`: one of a burst (shots seconds apart of one scene) whose best one or two were kept;
 * - `blurry` / `exposure`: blurred, or badly over- or under-exposed: left out while a better photo of
 *   the same moment was kept; without one it stays in the book (`kept: true`), its score lowered;
 * - `kept`: in the book, nothing against it.
 */
export const CURATION_REASONS = ['duplicate', 'burst', 'blurry', 'exposure', 'kept'] as const;
type CurationReason = (typeof CURATION_REASONS)[number];

export interface PhotoCuration {
  kept: boolean;
  reason: CurationReason;
  /** The id of the photo kept for this photo's group of copies or burst; null when it stands alone. */
  groupId: string | null;
  /** 0..1, the photo's importance: its quality, halved when blurred or badly exposed. Higher gets more room. */
  score: number;
}
