import type { PhotoCuration } from '../../domain/curation';

/** What curation reads of an analysed photo (photo-analysis.ts). */
export interface CurationPhoto {
  id: string;
  width: number;
  height: number;
  /** Position in the client's list. */
  position: number;
  capturedAt: Date | null;
  quality: number;
  sharpness: number;
  exposure: number;
  /** 32 hex digits (differenceHash); null for a photo analysed before hashes existed: never grouped. */
  perceptualHash: string | null;
}

/**
 * Hamming distance (of 128 bits) up to which two photos are copies of one shot. Measured on the
 * labelled set (test/support/curation-set.ts, `npm run bench -- curation`): re-encoded, resized,
 * blurred and recoloured copies land 0–5 bits from their original, 6%-cropped ones 4–17; distinct
 * scenes 35 bits apart and more; the frames of a burst 1–10.
 */
const DUPLICATE_BITS = 20;
/** Up to this distance two photos show the same scene: a burst's shots, or the same moment taken twice. */
const SAME_SCENE_BITS = 30;
/** Shots at most this far apart (each from the one before) are one burst, when they show the same scene. */
const BURST_GAP_MS = 4_000;
/** Photos this close in capture time are "the same moment" for blur and exposure. */
const MOMENT_MS = 120_000;
/**
 * Below this sharpness (variance of the Laplacian 25 at 512 px, a quarter of the classic "soft"
 * threshold) a photo is blurred: only clearly blurred or out-of-focus shots, as a camera shake or a
 * missed focus gives (single digits), not merely soft or low-contrast ones.
 */
const BLURRY_SHARPNESS = 0.2;
/** Below this exposure score (mean luminance under ~6% or over ~94%) a photo is badly exposed. */
const BAD_EXPOSURE = 0.3;
/** A burst of this many shots or more keeps its best two (when they differ enough); a smaller one its best. */
const BURST_KEEPS_TWO = 4;

/**
 * Decides for each photo whether the smartbook shows it, and why (domain/curation.ts):
 * 1. copies of one shot (perceptual hashes within DUPLICATE_BITS, linked transitively, no two of
 *    a group captured a second or more apart) keep their best: unblurred and well exposed, then the most
 *    pixels, then the best quality; a blurred copy of a sharp one answers `blurry`, any other
 *    `duplicate`;
 * 2. a burst (shots at most BURST_GAP_MS apart, each of the same scene as the one before) keeps its
 *    best one, or two for a long burst when the two are not copies of each other;
 * 3. a blurred or badly exposed photo still in is left out when a sharp, well exposed photo of the
 *    same moment (within MOMENT_MS, or of the same scene) is in; otherwise it stays, demoted.
 * "Best" is the analysis' quality score (sharpness, resolution, exposure); ties go to the earlier
 * photo in the client's order. Cost: O(n²) hash comparisons of two 64-bit words, a millisecond for
 * a thousand photos.
 */
export function curatePhotos(photos: CurationPhoto[]): Map<string, PhotoCuration> {
  const flawOf = (p: CurationPhoto): 'blurry' | 'exposure' | null =>
    p.sharpness < BLURRY_SHARPNESS ? 'blurry' : p.exposure < BAD_EXPOSURE ? 'exposure' : null;
  const hashes = new Map(photos.map((p) => [p.id, p.perceptualHash ? parseHash(p.perceptualHash) : null]));
  const distance = (a: CurationPhoto, b: CurationPhoto): number => {
    const ha = hashes.get(a.id);
    const hb = hashes.get(b.id);
    return ha && hb ? hamming(ha, hb) : 128;
  };
  const better = (a: CurationPhoto, b: CurationPhoto) => b.quality - a.quality || a.position - b.position;
  // Among copies of one shot the largest unblurred one is nearest the camera's file (a resized or
  // cropped copy has fewer pixels); between equals (an edit, a recolouring) quality decides.
  const betterCopy = (a: CurationPhoto, b: CurationPhoto) =>
    Number(Boolean(flawOf(a))) - Number(Boolean(flawOf(b))) || b.width * b.height - a.width * a.height || better(a, b);
  const result = new Map<string, PhotoCuration>();
  const score = (p: CurationPhoto) => round4(flawOf(p) ? p.quality / 2 : p.quality);
  const leaveOut = (p: CurationPhoto, reason: PhotoCuration['reason'], groupId: string | null) =>
    result.set(p.id, { kept: false, reason, groupId, score: score(p) });

  // 1. Copies of one shot. Two photos with different capture times are two shots, however alike:
  // a burst's frames (step 2) or a pose taken again (a copy keeps its original's EXIF, or has none).
  // Checked for the whole group, so an undated copy cannot chain two dated shots into one.
  const groups = connectedGroups(
    photos,
    (a, b) => distance(a, b) <= DUPLICATE_BITS,
    (group) => {
      const times = group.filter((p) => p.capturedAt).map(time);
      return times.length === 0 || Math.max(...times) - Math.min(...times) < 1000;
    },
  );
  const survivors: CurationPhoto[] = [];
  const groupOf = new Map<string, string>();
  for (const group of groups) {
    const [best, ...copies] = [...group].sort(betterCopy);
    survivors.push(best);
    if (copies.length === 0) continue;
    groupOf.set(best.id, best.id);
    for (const copy of copies) {
      const blurrier = flawOf(copy) === 'blurry' && flawOf(best) !== 'blurry';
      leaveOut(copy, blurrier ? 'blurry' : 'duplicate', best.id);
    }
  }

  // 2. Bursts, among the survivors, in capture order.
  const dated = survivors.filter((p) => p.capturedAt).sort((a, b) => time(a) - time(b) || a.position - b.position);
  const bursts: CurationPhoto[][] = [];
  for (const photo of dated) {
    const burst = bursts.at(-1);
    const previous = burst?.at(-1);
    if (
      burst &&
      previous &&
      time(photo) - time(previous) <= BURST_GAP_MS &&
      distance(photo, previous) <= SAME_SCENE_BITS
    )
      burst.push(photo);
    else bursts.push([photo]);
  }
  const stillIn = new Set(survivors.map((p) => p.id));
  for (const burst of bursts.filter((b) => b.length > 1)) {
    const ranked = [...burst].sort(better);
    const keep = [ranked[0]];
    const second = ranked[1];
    if (burst.length >= BURST_KEEPS_TWO && distance(second, ranked[0]) > DUPLICATE_BITS && !flawOf(second))
      keep.push(second);
    const groupId = groupOf.get(ranked[0].id) ?? ranked[0].id;
    for (const p of burst) groupOf.set(p.id, groupId);
    for (const p of ranked.filter((p) => !keep.includes(p))) {
      leaveOut(p, 'burst', groupId);
      stillIn.delete(p.id);
    }
  }

  // 3. Blurred or badly exposed: out when a good photo of the same moment is in, else demoted.
  const inBook = survivors.filter((p) => stillIn.has(p.id));
  for (const photo of inBook) {
    const flaw = flawOf(photo);
    if (!flaw) continue;
    const sameMoment = inBook.some(
      (other) =>
        other !== photo &&
        !flawOf(other) &&
        ((photo.capturedAt && other.capturedAt && Math.abs(time(photo) - time(other)) <= MOMENT_MS) ||
          distance(photo, other) <= SAME_SCENE_BITS),
    );
    if (sameMoment) {
      leaveOut(photo, flaw, groupOf.get(photo.id) ?? null);
      stillIn.delete(photo.id);
    } else {
      result.set(photo.id, { kept: true, reason: flaw, groupId: groupOf.get(photo.id) ?? null, score: score(photo) });
    }
  }
  for (const photo of inBook.filter((p) => stillIn.has(p.id) && !result.has(p.id))) {
    result.set(photo.id, { kept: true, reason: 'kept', groupId: groupOf.get(photo.id) ?? null, score: score(photo) });
  }
  return result;
}

/**
 * Groups of photos linked by `linked`, directly or through others (union-find); two groups join
 * only when the joined group is still `coherent`.
 */
function connectedGroups<T>(items: T[], linked: (a: T, b: T) => boolean, coherent: (group: T[]) => boolean): T[][] {
  const parent = items.map((_, i) => i);
  const members = items.map((item) => [item]);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) {
      const [ri, rj] = [root(i), root(j)];
      if (ri === rj || !linked(items[i], items[j])) continue;
      const joined = [...members[ri], ...members[rj]];
      if (!coherent(joined)) continue;
      parent[rj] = ri;
      members[ri] = joined;
      members[rj] = [];
    }
  return members.filter((group, i) => group.length > 0 && root(i) === i);
}

/** A 128-bit hash as four 32-bit words. */
function parseHash(hex: string): Uint32Array {
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = Number.parseInt(hex.slice(i * 8, i * 8 + 8).padEnd(8, '0'), 16) >>> 0;
  return words;
}

/** Differing bits of two hashes. */
function hamming(a: Uint32Array, b: Uint32Array): number {
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    let x = (a[i] ^ b[i]) >>> 0;
    while (x) {
      x &= x - 1;
      bits++;
    }
  }
  return bits;
}

/** Hamming distance of two hashes as stored (32 hex digits). */
export function hashDistance(a: string, b: string): number {
  return hamming(parseHash(a), parseHash(b));
}

function time(p: CurationPhoto): number {
  return p.capturedAt?.getTime() ?? 0;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
