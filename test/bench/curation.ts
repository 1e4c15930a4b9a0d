/**
 * `npm run bench -- curation`: smartbook curation measured on the labelled roll of
 * test/support/curation-set.ts (sharp-made scenes with known copies, bursts, blurred shots and
 * events). Prints one `label value` line a figure (run.ts reads them):
 * - duplicate grouping: pairs of photos put in one group of copies (a left-out `duplicate` or
 *   `blurry` photo and the photo its groupId names, and the others of that group) against pairs of
 *   one shot; precision and recall;
 * - blur decisions: photos answering `blurry` against photos made blurred;
 * - event boundaries: photos starting an event (photo-events.ts, on all photos in capture order,
 *   the first left out) against the set's;
 * - time per photo: the analysis (decode + measures + hash), the hash alone, curation, layout; and
 *   the analysis of 12 MP photos with the hash's share.
 * Issue 38 item 4 (faces) adds its row here: the share of labelled faces inside the safe area.
 * BENCH_QUICK=1: a smaller roll.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { analyzePhoto, differenceHash } from '../../src/imaging/photo-analysis';
import { buildBook } from '../../src/services/projects/book-builder';
import { curatePhotos } from '../../src/services/projects/photo-curation';
import { splitIntoEvents } from '../../src/services/projects/photo-events';
import { makeLabelledSet, type CopyKind, type SetSpec } from '../support/curation-set';

const quick = process.env.BENCH_QUICK === '1';
const SCENES = quick ? 12 : 30;
const COPY_SETS: CopyKind[][] = [
  ['reencoded', 'blurred'],
  ['cropped'],
  ['recoloured', 'reencoded'],
  [],
  ['blurred'],
  ['reencoded', 'cropped', 'recoloured', 'blurred'],
];
const spec: SetSpec = {
  scenes: Array.from({ length: SCENES }, (_, i) => ({
    copies: i % 7 === 3 ? [] : COPY_SETS[i % COPY_SETS.length],
    // A burst of blurred frames keeps its best and leaves the others out as `burst`, not `blurry`:
    // the set keeps the two apart so each label has one right answer.
    ...(i % 5 === 2 && i % 7 !== 3 ? { burst: 3 + (i % 4) } : {}),
    ...(i % 7 === 3 ? { loneBlurred: true } : {}),
  })),
  longSide: 1600,
  events: Math.round(SCENES / 4),
  seed: 2026,
};

const made = performance.now();
const roll = await makeLabelledSet(spec);
const madeSeconds = (performance.now() - made) / 1000;

// Analysis, one photo at a time as the build's activities run it.
const analyses: Awaited<ReturnType<typeof analyzePhoto>>[] = [];
const analysisMs: number[] = [];
for (const photo of roll) {
  const started = performance.now();
  analyses.push(await analyzePhoto(photo.bytes));
  analysisMs.push(performance.now() - started);
}
const photos = roll.map((label, position) => ({
  id: label.name,
  label,
  position,
  width: analyses[position].width,
  height: analyses[position].height,
  capturedAt: analyses[position].capturedAt,
  quality: analyses[position].quality,
  sharpness: analyses[position].sharpness,
  exposure: analyses[position].exposure,
  perceptualHash: analyses[position].perceptualHash,
}));

const curationStarted = performance.now();
const curation = curatePhotos(photos);
const curationMs = performance.now() - curationStarted;
const layoutStarted = performance.now();
buildBook({
  layoutType: 'smartbook',
  photos,
  curation,
  minPages: 24,
  maxPages: 200,
  texts: {},
  fallbackTitle: 'bench',
  format: { widthMm: 297, heightMm: 210 },
});
const layoutMs = performance.now() - layoutStarted;

// Duplicate grouping, pairwise.
const predictedGroups = new Map<string, Set<string>>();
for (const photo of photos) {
  const decision = curation.get(photo.id)!;
  if (decision.kept || !decision.groupId || !['duplicate', 'blurry'].includes(decision.reason)) continue;
  const group = predictedGroups.get(decision.groupId) ?? new Set([decision.groupId]);
  group.add(photo.id);
  predictedGroups.set(decision.groupId, group);
}
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
const predictedPairs = new Set<string>();
for (const group of predictedGroups.values()) {
  const members = [...group];
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) predictedPairs.add(pairKey(members[i], members[j]));
}
const truePairs = new Set<string>();
for (let i = 0; i < photos.length; i++)
  for (let j = i + 1; j < photos.length; j++)
    if (photos[i].label.shot === photos[j].label.shot) truePairs.add(pairKey(photos[i].id, photos[j].id));
const duplicates = precisionRecall(predictedPairs, truePairs);

// Blur decisions.
const blur = precisionRecall(
  new Set(photos.filter((p) => curation.get(p.id)!.reason === 'blurry').map((p) => p.id)),
  new Set(photos.filter((p) => p.label.blurred).map((p) => p.id)),
);

// Bursts: the frames left out as `burst` against the frames of a burst that are not its kept one(s).
const burstOut = photos.filter((p) => curation.get(p.id)!.reason === 'burst');
const burstCorrect = burstOut.filter((p) => p.label.burst).length;

// Event boundaries on every photo in capture order, the first (always a start) left out.
const ordered = [...photos].sort(
  (a, b) => (a.capturedAt?.getTime() ?? 0) - (b.capturedAt?.getTime() ?? 0) || a.position - b.position,
);
const starts = splitIntoEvents(ordered)
  .slice(1)
  .map((event) => event[0].id);
const events = precisionRecall(
  new Set(starts),
  new Set(
    ordered
      .slice(1)
      .filter((p) => p.label.startsEvent)
      .map((p) => p.id),
  ),
);

// The hash alone, on the grey copy the analysis decodes (~512 px long side).
const grey = await sharp(roll[0].bytes)
  .greyscale()
  .resize(512, 512, { fit: 'inside' })
  .raw()
  .toBuffer({ resolveWithObject: true });
const hashRounds = 2000;
const hashStarted = performance.now();
for (let i = 0; i < hashRounds; i++) differenceHash(grey.data, grey.info.width, grey.info.height);
const hashMs = (performance.now() - hashStarted) / hashRounds;

// 12 MP photos: what analysis costs a camera's photo, and the hash's share of it.
const big: number[] = [];
for (let i = 0; i < (quick ? 2 : 5); i++) {
  const photo = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  const started = performance.now();
  await analyzePhoto(photo);
  big.push(performance.now() - started);
}

const n = photos.length;
const line = (label: string, value: string) => console.log(`${label} ${value}`);
line(
  'photos',
  `${n} (${SCENES} scenes, ${predictedGroups.size} groups of copies found, made in ${madeSeconds.toFixed(1)} s)`,
);
line('duplicate precision', duplicates.precision.toFixed(3));
line('duplicate recall', duplicates.recall.toFixed(3));
line('blur precision', blur.precision.toFixed(3));
line('blur recall', blur.recall.toFixed(3));
line('burst frames left out', `${burstOut.length} (${burstCorrect} of a burst)`);
line('event precision', events.precision.toFixed(3));
line('event recall', events.recall.toFixed(3));
line('analysis ms per photo', `${median(analysisMs).toFixed(1)} (median, 1600 px photos)`);
line('analysis ms per 12 MP photo', `${median(big).toFixed(0)} (median)`);
line('hash ms per photo', hashMs.toFixed(3));
line('curation ms per photo', (curationMs / n).toFixed(3));
line('layout ms per photo', (layoutMs / n).toFixed(3));

function precisionRecall(predicted: Set<string>, truth: Set<string>): { precision: number; recall: number } {
  const hits = [...predicted].filter((x) => truth.has(x)).length;
  return {
    precision: predicted.size === 0 ? (truth.size === 0 ? 1 : 0) : hits / predicted.size,
    recall: truth.size === 0 ? 1 : hits / truth.size,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
