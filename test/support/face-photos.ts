import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

/**
 * Real photos with faces, for the face tests and the faces bench: the six demo photos that
 * `@vladmandic/face-api` 1.7.15 ships in its `demo/` folder (`demo/sample1.jpg` … `sample6.jpg`,
 * 1920 px wide, groups of people indoors), distributed under the package's MIT licence
 * (node_modules/@vladmandic/face-api/LICENSE). Nothing is downloaded: they come with the package.
 *
 * The labelled boxes below are in pixels of those originals. They were found by face-api's larger
 * SSD MobileNet v1 detector at full resolution (not the Tiny detector the service runs) and each was
 * checked by eye on a crop of the photo; a detector that finds the face overlaps its box.
 */
const require = createRequire(import.meta.url);
const DEMO = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

export function samplePhotoFile(sample: number): string {
  return path.join(DEMO, `sample${sample}.jpg`);
}

export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every clearly visible face of samples 1 and 5 (all three, all five). */
export const SAMPLE_FACES: Record<number, PixelBox[]> = {
  1: [
    { x: 414, y: 355, width: 177, height: 240 },
    { x: 838, y: 421, width: 186, height: 228 },
    { x: 1476, y: 199, width: 203, height: 241 },
  ],
  5: [
    { x: 787, y: 109, width: 156, height: 212 },
    { x: 1113, y: 198, width: 158, height: 236 },
    { x: 1406, y: 390, width: 165, height: 271 },
    { x: 598, y: 415, width: 166, height: 249 },
    { x: 377, y: 859, width: 172, height: 301 },
  ],
};

/** Single faces, each with its sample: the heads cut out (as patches) to be placed on made canvases. */
export const LABELLED_FACES: { sample: number; face: PixelBox }[] = [
  { sample: 1, face: { x: 414, y: 355, width: 177, height: 240 } },
  { sample: 1, face: { x: 838, y: 421, width: 186, height: 228 } },
  { sample: 1, face: { x: 1476, y: 199, width: 203, height: 241 } },
  { sample: 3, face: { x: 585, y: 329, width: 199, height: 271 } },
  { sample: 3, face: { x: 1514, y: 292, width: 170, height: 280 } },
  { sample: 4, face: { x: 664, y: 53, width: 187, height: 258 } },
  { sample: 4, face: { x: 989, y: 180, width: 169, height: 227 } },
  { sample: 5, face: { x: 787, y: 109, width: 156, height: 212 } },
  { sample: 5, face: { x: 1113, y: 198, width: 158, height: 236 } },
  { sample: 6, face: { x: 1180, y: 305, width: 188, height: 280 } },
];

/** A head cut from its photo: the face with half its size around it (less where the photo ends), and the face's box in the patch. */
export async function facePatch(
  index: number,
): Promise<{ image: Buffer; width: number; height: number; face: PixelBox }> {
  const { sample, face } = LABELLED_FACES[index % LABELLED_FACES.length];
  const file = samplePhotoFile(sample);
  const meta = await sharp(file).metadata();
  const left = Math.max(0, Math.round(face.x - 0.5 * face.width));
  const top = Math.max(0, Math.round(face.y - 0.5 * face.height));
  const right = Math.min(meta.width, Math.round(face.x + 1.5 * face.width));
  const bottom = Math.min(meta.height, Math.round(face.y + 1.5 * face.height));
  const image = await sharp(file)
    .extract({ left, top, width: right - left, height: bottom - top })
    .toBuffer();
  return {
    image,
    width: right - left,
    height: bottom - top,
    face: { x: face.x - left, y: face.y - top, width: face.width, height: face.height },
  };
}

/** A landscape made by sharp: sky, hills and a lake with some texture, and no face anywhere. */
export function landscape(width: number, height: number): Sharp {
  const hills = Array.from({ length: 7 }, (_, i) => {
    const cx = ((i * 0.37 + 0.1) % 1) * width;
    return `<ellipse cx="${cx}" cy="${height * 0.62}" rx="${width * (0.18 + (i % 3) * 0.07)}" ry="${height * (0.12 + (i % 2) * 0.06)}" fill="#${['3f6b3a', '527a45', '2f5530'][i % 3]}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b8fd6"/><stop offset="1" stop-color="#d9e8f5"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>${hills}
    <rect y="${height * 0.7}" width="100%" height="${height * 0.3}" fill="#35668c"/>
    ${Array.from({ length: 40 }, (_, i) => `<rect x="${(i * 131) % width}" y="${height * 0.72 + ((i * 37) % (height * 0.26))}" width="${width * 0.05}" height="3" fill="#9cc3e0" opacity="0.6"/>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg));
}

/**
 * A photo made by sharp (the landscape) with the head of labelled face `index` placed at (`left`,
 * `top`), scaled so its face is `faceHeight` pixels tall; answers the JPEG and where its face is.
 */
export async function faceOnLandscape(options: {
  width: number;
  height: number;
  index: number;
  faceHeight: number;
  /** Where the face's box starts, in pixels of the photo (the head around it may reach past the edges and is cut there). */
  faceLeft: number;
  faceTop: number;
  /** The photo to place the head on (PNG or JPEG of this size); the landscape by default. */
  background?: Buffer;
}): Promise<{ photo: Buffer; face: PixelBox }> {
  const patch = await facePatch(options.index);
  const scale = options.faceHeight / patch.face.height;
  const width = Math.max(1, Math.round(patch.width * scale));
  const height = Math.max(1, Math.round(patch.height * scale));
  const face = {
    x: Math.round(options.faceLeft),
    y: Math.round(options.faceTop),
    width: Math.round(patch.face.width * scale),
    height: Math.round(patch.face.height * scale),
  };
  // The patch's top-left corner, and the part of it that lies on the photo.
  const patchLeft = face.x - Math.round(patch.face.x * scale);
  const patchTop = face.y - Math.round(patch.face.y * scale);
  const cut = {
    left: Math.max(0, -patchLeft),
    top: Math.max(0, -patchTop),
    right: Math.min(width, options.width - patchLeft),
    bottom: Math.min(height, options.height - patchTop),
  };
  const head = await sharp(await sharp(patch.image).resize(width, height, { fit: 'fill' }).toBuffer())
    .extract({ left: cut.left, top: cut.top, width: cut.right - cut.left, height: cut.bottom - cut.top })
    .toBuffer();
  const background = options.background ?? (await landscape(options.width, options.height).png().toBuffer());
  const photo = await sharp(background)
    .composite([{ input: head, left: patchLeft + cut.left, top: patchTop + cut.top }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return { photo, face };
}

/** Intersection over union of two boxes in the same units. */
export function iou(a: PixelBox, b: PixelBox): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
