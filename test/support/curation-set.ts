import sharp, { type Sharp } from 'sharp';

/**
 * A labelled camera roll made by sharp, for curation's tests and `npm run bench -- curation`:
 * scenes of random shapes (seeded, so every run makes the same photos), each shot taken as an
 * original and, as the set asks, copies of that one shot (re-encoded and resized, lightly cropped,
 * recoloured, blurred: "duplicates" whose best must be kept), bursts (shots a second apart with the
 * subject moving a little), lone blurred shots, and capture times (EXIF DateTimeOriginal with its
 * OffsetTimeOriginal) in events separated by hours. Each photo carries its truth.
 *
 * Faces have their own labelled set (real faces placed at known positions: test/support/face-photos.ts),
 * measured by the bench's faces row, which `npm run bench -- curation` runs too.
 */
export type CopyKind = 'reencoded' | 'cropped' | 'recoloured' | 'blurred';

export interface LabelledPhoto {
  name: string;
  bytes: Buffer;
  width: number;
  height: number;
  /** UTC capture time written into EXIF, or null: none written. */
  capturedAt: Date | null;
  /** The shot it is (an original or its copies share it); a burst's frames are distinct shots of one burst. */
  shot: string;
  /** The copy it is of its shot's original; null for the original itself. */
  copy: CopyKind | null;
  /** The burst it belongs to, null when none. */
  burst: string | null;
  /** Blurred (a blurred copy, or a lone shot out of focus). */
  blurred: boolean;
  /** Starts an event in capture order (the first photo, and the first after a gap of hours). */
  startsEvent: boolean;
}

export interface SetSpec {
  /** Scenes, each an original with the copies named. */
  scenes: { copies: CopyKind[]; burst?: number; loneBlurred?: boolean }[];
  /** Long side of the originals, pixels. */
  longSide?: number;
  /** Capture times: scenes are spread over this many events hours apart; null writes none. */
  events?: number | null;
  seed?: number;
}

const START = Date.UTC(2026, 5, 1, 8, 0, 0);

export async function makeLabelledSet(spec: SetSpec): Promise<LabelledPhoto[]> {
  const longSide = spec.longSide ?? 1200;
  const random = seeded(spec.seed ?? 38);
  const photos: LabelledPhoto[] = [];
  const events = spec.events === undefined ? 3 : spec.events;
  const perEvent = events ? Math.ceil(spec.scenes.length / events) : spec.scenes.length;
  for (const [index, scene] of spec.scenes.entries()) {
    const portrait = random() < 0.3;
    const width = portrait ? Math.round(longSide * 0.75) : longSide;
    const height = portrait ? longSide : Math.round(longSide * 0.75);
    const shapes = sceneShapes(random);
    const event = Math.floor(index / perEvent);
    // Events a day apart (plus hours), scenes of one event 10 minutes apart.
    const time = events ? START + event * 27 * 3_600_000 + (index % perEvent) * 600_000 : null;
    const startsEvent = index % perEvent === 0;
    const shot = `s${index}`;
    const frames = scene.burst ?? 1;
    for (let frame = 0; frame < frames; frame++) {
      const frameShot = frames > 1 ? `${shot}f${frame}` : shot;
      const base = await render(shapes, width, height, frame * 6, scene.loneBlurred ? 12 : 0);
      const at = time === null ? null : new Date(time + frame * 1000);
      const label = {
        shot: frameShot,
        burst: frames > 1 ? shot : null,
        startsEvent: startsEvent && frame === 0,
      };
      photos.push({
        name: `${frameShot}.jpg`,
        bytes: await withCaptureTime(sharp(base).jpeg({ quality: 92 }), at),
        width,
        height,
        capturedAt: at,
        copy: null,
        blurred: Boolean(scene.loneBlurred),
        ...label,
      });
      if (frame > 0) continue;
      for (const copy of scene.copies) {
        const made = await copyOf(base, copy, width, height);
        photos.push({
          name: `${frameShot}-${copy}.jpg`,
          bytes: await withCaptureTime(sharp(made.pixels).jpeg({ quality: copy === 'reencoded' ? 70 : 90 }), at),
          width: made.width,
          height: made.height,
          capturedAt: at,
          copy,
          blurred: copy === 'blurred',
          ...label,
          startsEvent: false,
        });
      }
    }
  }
  return photos;
}

async function copyOf(
  base: Buffer,
  copy: CopyKind,
  width: number,
  height: number,
): Promise<{ pixels: Buffer; width: number; height: number }> {
  switch (copy) {
    case 'reencoded': {
      const w = Math.round(width * 0.6);
      const h = Math.round(height * 0.6);
      return { pixels: await sharp(base).resize(w, h).png().toBuffer(), width: w, height: h };
    }
    case 'cropped': {
      const w = Math.round(width * 0.94);
      const h = Math.round(height * 0.94);
      const left = Math.round(width * 0.03);
      const top = Math.round(height * 0.03);
      return {
        pixels: await sharp(base).extract({ left, top, width: w, height: h }).png().toBuffer(),
        width: w,
        height: h,
      };
    }
    case 'recoloured':
      return {
        pixels: await sharp(base).modulate({ brightness: 1.1, saturation: 0.5, hue: 30 }).png().toBuffer(),
        width,
        height,
      };
    case 'blurred':
      return { pixels: await sharp(base).blur(10).png().toBuffer(), width, height };
  }
}

interface Shape {
  kind: 'circle' | 'rect' | 'line';
  x: number;
  y: number;
  size: number;
  colour: string;
  /** Moves with the subject in a burst. */
  moving: boolean;
}

function sceneShapes(random: () => number): { background: [string, string]; shapes: Shape[] } {
  const colour = () =>
    `#${Math.floor(random() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`;
  const kinds: Shape['kind'][] = ['circle', 'rect', 'line'];
  return {
    background: [colour(), colour()],
    shapes: Array.from({ length: 28 }, (_, i) => ({
      kind: kinds[Math.floor(random() * 3)],
      x: random(),
      y: random(),
      size: 0.03 + random() * 0.2,
      colour: colour(),
      moving: i % 4 === 0,
    })),
  };
}

/** The scene as pixels (PNG); `shift` moves the moving shapes (a burst's next frame), `blur` defocuses it. */
async function render(
  scene: { background: [string, string]; shapes: Shape[] },
  width: number,
  height: number,
  shift: number,
  blur: number,
): Promise<Buffer> {
  const s = Math.min(width, height);
  const shapes = scene.shapes
    .map((shape) => {
      const x = shape.x * width + (shape.moving ? shift * (s / 400) : 0);
      const y = shape.y * height;
      const size = shape.size * s;
      if (shape.kind === 'circle') return `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${shape.colour}"/>`;
      if (shape.kind === 'rect')
        return `<rect x="${x}" y="${y}" width="${size}" height="${size * 0.7}" fill="${shape.colour}"/>`;
      return `<line x1="${x}" y1="${y}" x2="${x + size}" y2="${y + size * 0.4}" stroke="${shape.colour}" stroke-width="${Math.max(2, s / 200)}"/>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${scene.background[0]}"/><stop offset="1" stop-color="${scene.background[1]}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  let image = sharp(Buffer.from(svg));
  if (blur) image = sharp(await image.png().toBuffer()).blur(blur);
  return image.png().toBuffer();
}

/** EXIF DateTimeOriginal in local time at +02:00 with its OffsetTimeOriginal, as a phone writes it. */
async function withCaptureTime(image: Sharp, at: Date | null): Promise<Buffer> {
  if (!at) return image.toBuffer();
  const local = new Date(at.getTime() + 2 * 3_600_000).toISOString();
  const exifDate = `${local.slice(0, 10).replaceAll('-', ':')} ${local.slice(11, 19)}`;
  return image.withExifMerge({ IFD2: { DateTimeOriginal: exifDate, OffsetTimeOriginal: '+02:00' } }).toBuffer();
}

/** mulberry32: a small seeded generator, so the set is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
