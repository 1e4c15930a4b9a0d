/**
 * Faces bench (`npm run bench -- faces`, or `npx tsx test/bench/faces.ts`): a labelled set of real
 * faces (face-api's demo photos, MIT, shipped in @vladmandic/face-api: test/support/face-photos.ts)
 * placed by sharp at known positions on made landscapes of four shapes, one or two faces a photo, near
 * an edge, a corner or the centre. Each photo goes through the service's own steps: the analysis
 * thumbnail, the detector on it, then the automatic crop into every slot of the book layouts and a
 * full-bleed slot, on right- and left-hand pages of an A4 portrait and an A4 landscape book. Prints:
 *
 * - the share of labelled faces the automatic crop puts inside the slot's safe area (out of the trim,
 *   the bleed and the gutter), over the slots where some crop could put all the photo's faces there
 *   (the target, >= 0.99), over the faces the detector found, and over all faces; where not all fit,
 *   the share of slots whose largest face is kept;
 * - detection recall: labelled faces overlapped by a detected box (intersection over union >= 0.25:
 *   the Tiny detector's boxes are looser than the labels'), and the detections that match no label;
 * - milliseconds per photo of detection (thumbnail to boxes), wall and CPU, with the load average.
 *
 * BENCH_PHOTOS sets the number of photos (default 60). The last line, `RESULT {...}`, is for run.ts.
 * Prints figures; asserts nothing.
 */
import os from 'node:os';
import sharp from 'sharp';
import { layoutSlots } from '../../src/services/projects/book-builder';
import { PAGE_LAYOUTS } from '../../src/domain/book';
import { automaticCrop, cropRect } from '../../src/domain/slot-crop';
import { pageSide, slotSafeArea, type SlotArea } from '../../src/domain/print-safe-area';
import { detectFaces } from '../../src/imaging/faces/face-detector';
import { makeThumbnail } from '../../src/imaging/thumbnail';
import { faceOnLandscape, facePatch, iou, LABELLED_FACES, landscape, type PixelBox } from '../support/face-photos';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 60);
const SHAPES = [
  { width: 3600, height: 2400 },
  { width: 3600, height: 1800 },
  { width: 2400, height: 3200 },
  { width: 3000, height: 3000 },
];
/** Where a face goes: its box's centre, 0..1 of the photo (kept off the very edge by the placement below). */
const PLACES = [
  { x: 0.9, y: 0.4 },
  { x: 0.1, y: 0.35 },
  { x: 0.5, y: 0.12 },
  { x: 0.45, y: 0.85 },
  { x: 0.88, y: 0.14 },
  { x: 0.5, y: 0.5 },
  { x: 0.15, y: 0.85 },
];
const TRIMS = [
  { widthMm: 210, heightMm: 297 },
  { widthMm: 297, heightMm: 210 },
];
const SLOTS = [
  // A spread's slot spans two pages with a safe area each side of the fold: its faces are checked on
  // the printed spread (test/imaging/print/spread-print.test.ts), not by this one-page measure.
  ...PAGE_LAYOUTS.filter((layout) => layout !== 'spread').flatMap((layout) => layoutSlots(layout)),
  // A full-bleed photo and a half page at the binding edge, both into the bleed.
  { x: -0.01, y: -0.01, width: 1.02, height: 1.02 },
  { x: 0.5, y: -0.01, width: 0.51, height: 1.02 },
  { x: -0.01, y: 0.2, width: 0.51, height: 0.6 },
];

interface Labelled {
  photo: Buffer;
  size: { width: number; height: number };
  faces: PixelBox[];
}

/** Photo `i` of the set: one face, or (every fourth photo) two faces of different people and sizes. */
async function labelledPhoto(i: number): Promise<Labelled> {
  const size = SHAPES[i % SHAPES.length];
  const short = Math.min(size.width, size.height);
  const heights = [short / 5, short / 7, short / 9];
  const count = i % 4 === 3 ? 2 : 1;
  const faces: PixelBox[] = [];
  let photo: Buffer = await landscape(size.width, size.height).png().toBuffer();
  for (let k = 0; k < count; k++) {
    const index = (i * 3 + k * 5) % LABELLED_FACES.length;
    const place = PLACES[(i + k * 3) % PLACES.length];
    const faceHeight = heights[(i + k) % heights.length];
    const patch = await facePatch(index);
    const faceWidth = (patch.face.width / patch.face.height) * faceHeight;
    // At least 4% of the photo's side between the face and the photo's edge.
    const faceLeft = clamp(place.x * size.width - faceWidth / 2, 0.04 * size.width, 0.96 * size.width - faceWidth);
    const faceTop = clamp(place.y * size.height - faceHeight / 2, 0.04 * size.height, 0.96 * size.height - faceHeight);
    const placed = await faceOnLandscape({ ...size, index, faceHeight, faceLeft, faceTop, background: photo });
    photo = placed.photo;
    faces.push(placed.face);
  }
  return { photo: await sharp(photo).jpeg({ quality: 90 }).toBuffer(), size, faces };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Whether some crop of the photo (zoom 1) puts all these faces inside the safe area at once. */
function canFit(
  photo: { width: number; height: number },
  slot: { width: number; height: number },
  faces: PixelBox[],
  safe: SlotArea,
): boolean {
  const window = cropRect(photo, slot);
  const fits = (boxes: { start: number; size: number }[], w: number, from: number, to: number) =>
    Math.max(0, ...boxes.map((b) => b.start + b.size - to * w)) <=
    Math.min(1 - w, ...boxes.map((b) => b.start - from * w)) + 1e-9;
  return (
    fits(
      faces.map((f) => ({ start: f.x / photo.width, size: f.width / photo.width })),
      window.width,
      safe.left,
      safe.right,
    ) &&
    fits(
      faces.map((f) => ({ start: f.y / photo.height, size: f.height / photo.height })),
      window.height,
      safe.top,
      safe.bottom,
    )
  );
}

function isInside(
  rect: ReturnType<typeof cropRect>,
  photo: { width: number; height: number },
  face: PixelBox,
  safe: SlotArea,
) {
  const left = (face.x / photo.width - rect.left) / rect.width;
  const right = ((face.x + face.width) / photo.width - rect.left) / rect.width;
  const top = (face.y / photo.height - rect.top) / rect.height;
  const bottom = ((face.y + face.height) / photo.height - rect.top) / rect.height;
  const e = 1e-6;
  return left >= safe.left - e && right <= safe.right + e && top >= safe.top - e && bottom <= safe.bottom + e;
}

let labelledFaces = 0;
let detectedLabelled = 0;
let unmatchedDetections = 0;
let placements = 0;
let inside = 0;
let fittable = 0;
let insideOfFittable = 0;
let wallMs = 0;
let cpuMs = 0;
let detectedPlacements = 0;
let crowded = 0;
let fittableDetected = 0;
let insideOfFittableDetected = 0;
let largestKept = 0;
let insideOfDetected = 0;
const missedBySize: string[] = [];
// The detector loads once per process (tens of ms): not a photo's cost.
await detectFaces(await makeThumbnail(await landscape(600, 400).jpeg().toBuffer()));
const loadBefore = os.loadavg()[0];

for (let i = 0; i < PHOTOS; i++) {
  const { photo, size, faces } = await labelledPhoto(i);
  const thumbnail = await makeThumbnail(photo);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const found = await detectFaces(thumbnail);
  const used = process.cpuUsage(cpu);
  wallMs += performance.now() - started;
  cpuMs += (used.user + used.system) / 1000;

  const foundPx = found.map((f) => ({
    x: f.x * size.width,
    y: f.y * size.height,
    width: f.width * size.width,
    height: f.height * size.height,
  }));
  labelledFaces += faces.length;
  const detected = faces.map((face) => foundPx.some((f) => iou(f, face) >= 0.25));
  detectedLabelled += detected.filter(Boolean).length;
  faces.forEach((face, k) => {
    if (!detected[k])
      missedBySize.push(
        `${(face.height / Math.max(size.width, size.height)).toFixed(3)} of ${size.width}x${size.height}`,
      );
  });
  unmatchedDetections += foundPx.filter((f) => !faces.some((face) => iou(f, face) >= 0.25)).length;

  for (const trim of TRIMS)
    for (const pageNumber of [1, 2])
      for (const slot of SLOTS) {
        const slotMm = { width: slot.width * trim.widthMm, height: slot.height * trim.heightMm };
        const safe = slotSafeArea(slot, trim, pageSide(pageNumber));
        const rect = cropRect(size, slotMm, automaticCrop(size, slotMm, found, safe));
        const allFit = canFit(size, slotMm, faces, safe);
        for (const [k, face] of faces.entries()) {
          placements++;
          const kept = isInside(rect, size, face, safe);
          if (kept) inside++;
          if (detected[k]) {
            detectedPlacements++;
            if (kept) insideOfDetected++;
          }
          if (allFit) {
            fittable++;
            if (kept) insideOfFittable++;
            if (detected.every(Boolean)) {
              fittableDetected++;
              if (kept) insideOfFittableDetected++;
            }
          }
        }
        if (!allFit && faces.length > 1) {
          // Not all fit: the largest that fits on its own should be kept.
          const largest = [...faces].sort((a, b) => b.width * b.height - a.width * a.height)[0];
          if (canFit(size, slotMm, [largest], safe)) {
            crowded++;
            if (isInside(rect, size, largest, safe)) largestKept++;
          }
        }
      }
}

const result = {
  photos: PHOTOS,
  labelledFaces,
  placements,
  fittable,
  insideShare: insideOfFittable / fittable,
  insideShareAll: inside / placements,
  insideShareDetected: insideOfDetected / detectedPlacements,
  largestKeptShare: largestKept / crowded,
  insideShareFoundAndFit: insideOfFittableDetected / fittableDetected,
  recall: detectedLabelled / labelledFaces,
  unmatchedDetections,
  msPerPhoto: wallMs / PHOTOS,
  cpuMsPerPhoto: cpuMs / PHOTOS,
  load: [loadBefore, os.loadavg()[0]],
};
console.log(
  `Faces bench: ${PHOTOS} photos, ${labelledFaces} labelled faces, ${SLOTS.length} slots x 2 trims x 2 page sides`,
);
console.log(
  `| faces inside the safe area (where a crop can fit all the photo's faces) | ${insideOfFittable}/${fittable} | ${result.insideShare.toFixed(4)} |`,
);
console.log(
  `| the same, where the detector found every face of the photo | ${insideOfFittableDetected}/${fittableDetected} | ${result.insideShareFoundAndFit.toFixed(4)} |`,
);
console.log(
  `| largest face inside where not all fit                   | ${largestKept}/${crowded} | ${result.largestKeptShare.toFixed(4)} |`,
);
console.log(
  `| faces inside the safe area (of all placements)           | ${inside}/${placements} | ${result.insideShareAll.toFixed(4)} |`,
);
console.log(
  `| faces inside the safe area (of faces detected)          | ${insideOfDetected}/${detectedPlacements} | ${result.insideShareDetected.toFixed(4)} |`,
);
console.log(
  `| detection recall (IoU >= 0.25)                          | ${detectedLabelled}/${labelledFaces} | ${result.recall.toFixed(4)} |`,
);
console.log(`| detections matching no labelled face                    | ${unmatchedDetections} | |`);
console.log(
  `| detection per photo (analysis thumbnail to boxes)       | ${result.msPerPhoto.toFixed(1)} ms wall | ${result.cpuMsPerPhoto.toFixed(1)} ms CPU | load ${loadBefore.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)} |`,
);
if (missedBySize.length) console.log(`missed faces (face height of the photo's long side): ${missedBySize.join(', ')}`);
console.log(`RESULT ${JSON.stringify(result)}`);
