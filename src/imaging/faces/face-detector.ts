import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { FaceBox } from '../../domain/face-box';
import { guardDecode, openImage, type ImageSource } from '../decode';
import { useLoopConcat, type KernelRegistry } from './wasm-concat';

/**
 * Face detection on the CPU: the Tiny Face Detector of `@vladmandic/face-api` (MIT; a Tiny-YOLOv2
 * network of 190 KB whose weights ship in the package's `model/` folder) run by TensorFlow.js on
 * its WebAssembly backend (`@tensorflow/tfjs-backend-wasm`, Apache-2.0, whose `.wasm` files ship in
 * the package). Nothing is downloaded at install or at run time: the weights and the WebAssembly
 * are read from node_modules. Detection only: no landmarks, no descriptors, no recognition.
 */

/** The parts of TensorFlow.js this file uses. */
interface TensorFlow extends KernelRegistry {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
}

/** The parts of face-api's node-wasm build this file uses; `tf` is the TensorFlow.js it runs on. */
interface FaceApi {
  tf: TensorFlow;
  nets: { tinyFaceDetector: { loadFromDisk(folder: string): Promise<void> } };
  TinyFaceDetectorOptions: new (options: { inputSize: number; scoreThreshold: number }) => unknown;
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>;
}

/**
 * Long side, in pixels, of the upright copy faces are looked for in: the analysis thumbnail's
 * (thumbnail.ts), so the service decodes no more of the photo than it already does.
 */
const FACE_DETECTION_LONG_SIDE = 512;
/**
 * The network's square input (a multiple of 32), the copy's long side, so it is not scaled again: on
 * the labelled set (test/bench/faces.ts) 416 missed a quarter of the faces 1/12 of a photo's long
 * side tall, 512 one in thirty, at some 1.4 times the cost.
 */
const INPUT_SIZE = 512;
/** Below this confidence a box is more often a pattern than a face. */
const SCORE_THRESHOLD = 0.5;

const require = createRequire(import.meta.url);
let loaded: Promise<FaceApi> | undefined;

/** The detector, loaded once per process on first use (some 50 ms), from files inside node_modules. */
function detector(): Promise<FaceApi> {
  loaded ??= (async () => {
    // face-api's node-wasm build runs on the TensorFlow.js of the project's dependencies (it requires
    // it), which this file sets up: one module, so the backend set here is the one face-api uses.
    const tf = require('@tensorflow/tfjs') as TensorFlow;
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    if (faceapi.tf.setBackend !== tf.setBackend)
      throw new Error('face-api does not run on the installed TensorFlow.js');
    const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };
    wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`);
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WebAssembly backend did not start');
    await tf.ready();
    useLoopConcat(tf);
    await faceapi.nets.tinyFaceDetector.loadFromDisk(
      path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'),
    );
    return faceapi;
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** One detection at a time: the network's tensors of one photo are freed before the next photo's. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The faces in a photo, largest first, as boxes in 0..1 of the upright photo (EXIF orientation
 * applied, transparent areas flattened onto white). Throws NotAnImageError for what is no photo.
 */
export function detectFaces(input: ImageSource): Promise<FaceBox[]> {
  const run = queue.then(() => detect(input));
  queue = run.catch(() => undefined);
  return run;
}

async function detect(input: ImageSource): Promise<FaceBox[]> {
  const copy = await guardDecode(
    openImage(input)
      .autoOrient()
      .flatten({ background: '#ffffff' })
      .resize({
        width: FACE_DETECTION_LONG_SIDE,
        height: FACE_DETECTION_LONG_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  const { data, info } = await widened(copy);
  const faceapi = await detector();
  const found: FaceBox[] = [];
  for (const tile of tilesOf(info.width, info.height)) {
    const pixels =
      tile.width === info.width && tile.height === info.height
        ? data
        : await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
            .extract(tile)
            .raw()
            .toBuffer();
    // face-api's Box answers through getters: copied field by field, a spread would drop them.
    for (const { score, box } of await detectIn(faceapi, pixels, tile.width, tile.height))
      found.push(
        normalised(
          theFaceIn({ x: box.x + tile.left, y: box.y + tile.top, width: box.width, height: box.height }),
          info.width,
          info.height,
          score,
        ),
      );
  }
  return withoutRepeats(found.filter((face) => face.width > 0 && face.height > 0)).sort(
    (a, b) => b.width * b.height - a.width * a.height,
  );
}

async function detectIn(faceapi: FaceApi, pixels: Buffer, width: number, height: number) {
  const image = faceapi.tf.tensor3d(
    new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length),
    [height, width, 3],
    'int32',
  );
  try {
    return await faceapi.detectAllFaces(
      image,
      new faceapi.TinyFaceDetectorOptions({ inputSize: INPUT_SIZE, scoreThreshold: SCORE_THRESHOLD }),
    );
  } finally {
    image.dispose();
  }
}

interface Tile {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where the network looks: the whole copy when it fits the input, else squares of the input's size
 * along the long side, each overlapping the next by half, so a face up to half the input wide lies
 * whole in one. The input never grows past INPUT_SIZE because the backend's WebAssembly memory grows
 * to the largest input it has seen and is never given back (a 768 px input took a process from 290 to
 * 560 MiB for good); tiling costs a wide photo two or three passes of CPU instead.
 */
function tilesOf(width: number, height: number): Tile[] {
  const long = Math.max(width, height);
  if (long <= INPUT_SIZE) return [{ left: 0, top: 0, width, height }];
  const count = Math.ceil((long - INPUT_SIZE) / (INPUT_SIZE / 2)) + 1;
  const step = (long - INPUT_SIZE) / (count - 1);
  return Array.from({ length: count }, (_, i) => {
    const offset = Math.round(i * step);
    return width >= height
      ? { left: offset, top: 0, width: INPUT_SIZE, height }
      : { left: 0, top: offset, width, height: INPUT_SIZE };
  });
}

/** One box per face where tiles overlap: of two boxes that mostly cover each other, the surer stays. */
function withoutRepeats(faces: FaceBox[]): FaceBox[] {
  const kept: FaceBox[] = [];
  for (const face of [...faces].sort((a, b) => b.score - a.score))
    if (!kept.some((other) => overlapOfSmaller(face, other) > 0.5)) kept.push(face);
  return kept;
}

function overlapOfSmaller(a: FaceBox, b: FaceBox): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  return (width * height) / Math.min(a.width * a.height, b.width * b.height);
}

/**
 * The network sees a square: a wide or tall copy is padded to its long side, which leaves faces of a
 * 2:1 panorama half the pixels a 4:3 photo's have, below what the network finds. Such a copy is
 * enlarged until its short side is MIN_SHORT_SIDE (the input grows with it, at most 1.5 times).
 */
const MIN_SHORT_SIDE = 384;

async function widened(copy: { data: Buffer; info: { width: number; height: number } }) {
  const { width, height } = copy.info;
  const scale = Math.min(1.5, MIN_SHORT_SIDE / Math.min(width, height));
  if (scale <= 1) return copy;
  return sharp(copy.data, { raw: { width, height, channels: 3 } })
    .resize(Math.round(width * scale), Math.round(height * scale), { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/**
 * Where the face is in the network's box, in shares of the box's width and height: the Tiny
 * detector's box is not the face. It is half again as wide (it takes in the ears and the hair at
 * either side) and sits lower (from the brows to below the chin), so the forehead, which a print
 * must not cut, lies above it. Measured as the mean offsets from its boxes to the labelled faces
 * (forehead to chin, cheek to cheek: test/support/face-photos.ts) of the faces bench's 74 detections
 * of 10 people (left 0.188, right -0.176, top -0.109, bottom -0.154); each half of the people
 * measured alone gives offsets within 0.03 of these, and the 13 faces of the demo photos, detected
 * in their own photos rather than placed on a landscape, 0.187, -0.156, -0.133 and -0.139.
 */
const FACE_IN_BOX = { inFromLeft: 0.19, inFromRight: 0.18, topRaisedBy: 0.11, bottomRaisedBy: 0.15 };

/** The face the network's pixel box stands for (FACE_IN_BOX). */
function theFaceIn(box: { x: number; y: number; width: number; height: number }) {
  return {
    x: box.x + FACE_IN_BOX.inFromLeft * box.width,
    y: box.y - FACE_IN_BOX.topRaisedBy * box.height,
    width: box.width * (1 - FACE_IN_BOX.inFromLeft - FACE_IN_BOX.inFromRight),
    height: box.height * (1 + FACE_IN_BOX.topRaisedBy - FACE_IN_BOX.bottomRaisedBy),
  };
}

/** A pixel box clipped to the image, in 0..1 of its sides, rounded to 4 decimals (0.1 px of a 1000 px side). */
function normalised(
  box: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
  score: number,
): FaceBox {
  const left = clamp01(box.x / width);
  const top = clamp01(box.y / height);
  const right = clamp01((box.x + box.width) / width);
  const bottom = clamp01((box.y + box.height) / height);
  return {
    x: round4(left),
    y: round4(top),
    width: round4(right - left),
    height: round4(bottom - top),
    score: round4(score),
  };
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
