import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFaces } from '../../../src/imaging/faces/face-detector';
import { makeThumbnail } from '../../../src/imaging/thumbnail';
import { NotAnImageError } from '../../../src/imaging/errors';
import { faceOnLandscape, iou, landscape, SAMPLE_FACES, samplePhotoFile } from '../../support/face-photos';

/**
 * The detector on real photos: face-api's demo photos (MIT, shipped in @vladmandic/face-api 1.7.15,
 * test/support/face-photos.ts), run as the service runs it, on the analysis thumbnail.
 */
async function facesIn(photo: Buffer) {
  return detectFaces(await makeThumbnail(photo));
}

function matched(
  found: Awaited<ReturnType<typeof detectFaces>>,
  labelled: { x: number; y: number; width: number; height: number }[],
  size: { width: number; height: number },
) {
  return labelled.filter((box) =>
    found.some(
      (f) =>
        iou(
          { x: f.x * size.width, y: f.y * size.height, width: f.width * size.width, height: f.height * size.height },
          box,
        ) >= 0.25,
    ),
  ).length;
}

describe('face detector (imaging/faces)', () => {
  it('finds the three faces of a real group photo, and no more', async () => {
    const photo = await readFile(samplePhotoFile(1));
    const found = await facesIn(photo);
    expect(matched(found, SAMPLE_FACES[1], { width: 1920, height: 1280 })).toBe(3);
    expect(found).toHaveLength(3);
    for (const f of found) {
      expect(f.score).toBeGreaterThanOrEqual(0.5);
      expect(f.x + f.width).toBeLessThanOrEqual(1);
    }
    // Largest first.
    expect(found[0].width * found[0].height).toBeGreaterThanOrEqual(found[2].width * found[2].height);
  });

  it('finds at least four of the five faces of another', async () => {
    const found = await facesIn(await readFile(samplePhotoFile(5)));
    expect(matched(found, SAMPLE_FACES[5], { width: 1920, height: 1398 })).toBeGreaterThanOrEqual(4);
  });

  it("boxes the face, forehead to chin and cheek to cheek, not the network's wider and lower square", async () => {
    // The network's own boxes overlap these labelled faces by 0.46 to 0.56 (intersection over union).
    for (const [sample, size] of [
      [1, { width: 1920, height: 1280 }],
      [5, { width: 1920, height: 1398 }],
    ] as const) {
      const found = await facesIn(await readFile(samplePhotoFile(sample)));
      const overlaps = SAMPLE_FACES[sample].map((box) =>
        Math.max(
          ...found.map((f) =>
            iou(
              {
                x: f.x * size.width,
                y: f.y * size.height,
                width: f.width * size.width,
                height: f.height * size.height,
              },
              box,
            ),
          ),
        ),
      );
      expect(overlaps.filter((overlap) => overlap >= 0.6).length).toBeGreaterThanOrEqual(sample === 1 ? 3 : 4);
    }
  });

  it('finds none in a landscape made by sharp', async () => {
    expect(await facesIn(await landscape(3000, 2000).jpeg({ quality: 90 }).toBuffer())).toEqual([]);
  });

  it('finds a small face at each end of a 2:1 panorama once each (looked for in overlapping squares)', async () => {
    const left = await faceOnLandscape({
      width: 4000,
      height: 2000,
      index: 0,
      faceHeight: 240,
      faceLeft: 300,
      faceTop: 700,
    });
    const both = await faceOnLandscape({
      width: 4000,
      height: 2000,
      index: 1,
      faceHeight: 240,
      faceLeft: 3400,
      faceTop: 900,
      background: left.photo,
    });
    // And one where the squares overlap, so that both see it.
    const middle = await faceOnLandscape({
      width: 4000,
      height: 2000,
      index: 5,
      faceHeight: 240,
      faceLeft: 1900,
      faceTop: 800,
      background: both.photo,
    });
    const found = await facesIn(middle.photo);
    expect(matched(found, [left.face, both.face, middle.face], { width: 4000, height: 2000 })).toBe(3);
    expect(found).toHaveLength(3);
  });

  it('answers boxes of the upright photo when EXIF turns it', async () => {
    const { photo, face } = await faceOnLandscape({
      width: 2400,
      height: 1600,
      index: 0,
      faceHeight: 320,
      faceLeft: 1900,
      faceTop: 400,
    });
    // Stored turned a quarter to the left with orientation 6 (display turned 90 degrees clockwise).
    const stored = await sharp(photo).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();
    const found = await facesIn(stored);
    expect(matched(found, [face], { width: 2400, height: 1600 })).toBe(1);
  });

  it('refuses what is no image', async () => {
    await expect(detectFaces(Buffer.from('not an image'))).rejects.toBeInstanceOf(NotAnImageError);
  });
});
