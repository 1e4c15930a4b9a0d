import { hexColourBytes } from '../hex-colour';

/** Raw RGB pixels of one photo's visible part, placed at (left, top) of the page. */
export interface RawPhotoLayer {
  pixels: Buffer;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The page as raw RGB, filled with `background` ("#rgb" or "#rrggbb"), each photo's rows copied in
 * place. Photos are opaque and never overlap the page edge (they come clipped to it), so a copy is
 * exactly what an "over" composite would give, at a fraction of its cost: compositing onto a created
 * canvas costs several times the copy and the encoding together (docs/performance.md).
 */
export function pageCanvas(
  size: { width: number; height: number },
  background: string,
  photos: readonly RawPhotoLayer[],
): Buffer {
  const rowBytes = size.width * 3;
  const canvas = Buffer.alloc(rowBytes * size.height, hexColourBytes(background, 'background'));
  for (const photo of photos) {
    if (
      photo.left < 0 ||
      photo.top < 0 ||
      photo.left + photo.width > size.width ||
      photo.top + photo.height > size.height
    ) {
      throw new RangeError(
        `photo layer ${photo.width}x${photo.height} at ${photo.left},${photo.top} lies outside the ${size.width}x${size.height} page`,
      );
    }
    if (photo.pixels.length !== photo.width * photo.height * 3)
      throw new RangeError(`photo layer holds ${photo.pixels.length} bytes, not ${photo.width}x${photo.height} RGB`);
    const photoRowBytes = photo.width * 3;
    for (let y = 0; y < photo.height; y++) {
      photo.pixels.copy(
        canvas,
        (photo.top + y) * rowBytes + photo.left * 3,
        y * photoRowBytes,
        (y + 1) * photoRowBytes,
      );
    }
  }
  return canvas;
}
