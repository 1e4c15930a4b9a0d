import sharp from 'sharp';

/** The marker: a red square off-centre in a light grey 3000 x 2000 photo, so any crop shows where it moved. */
const PHOTO = { width: 3000, height: 2000 };
const MARKER = { left: 2000, top: 300, side: 400 };

export async function markerPhoto(background: string): Promise<Buffer> {
  return sharp({ create: { ...PHOTO, channels: 3, background } })
    .composite([
      {
        input: { create: { width: MARKER.side, height: MARKER.side, channels: 3, background: '#ff0000' } },
        left: MARKER.left,
        top: MARKER.top,
      },
    ])
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** The red pixels' bounding box in an image, as fractions of a region of it. */
export async function redBox(image: Buffer, region?: { left: number; top: number; width: number; height: number }) {
  const { data, info } = await sharp(image)
    .extract(
      region ??
        (await sharp(image)
          .metadata()
          .then((m) => ({ left: 0, top: 0, width: m.width, height: m.height }))),
    )
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let [left, top, right, bottom] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      // Pure red only: the editor's warning badges are a darker red.
      if (data[i] > 220 && data[i + 1] < 50 && data[i + 2] < 50) {
        [left, right, top, bottom] = [
          Math.min(left, x),
          Math.max(right, x + 1),
          Math.min(top, y),
          Math.max(bottom, y + 1),
        ];
      }
    }
  return {
    left: left / info.width,
    top: top / info.height,
    right: right / info.width,
    bottom: bottom / info.height,
  };
}
