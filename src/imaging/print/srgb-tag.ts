import sharp from 'sharp';

const SOI = 0xd8;
const APP1 = 0xe1;
const APP2 = 0xe2;

let profileSegment: Promise<Buffer> | undefined;

/**
 * A JPEG of sRGB pixels tagged with libvips's sRGB profile, byte for byte what
 * `.withIccProfile('srgb')` writes, without its colour transform. A page is composed in sRGB, so
 * sharp's sRGB-to-sRGB transform leaves every pixel as it was, yet it runs lcms over the whole page
 * (a quarter of a print page's encoding CPU, docs/performance.md). The profile's APP2 segment is
 * taken once from a 1 px JPEG that sharp tagged, and put where sharp puts it: after the EXIF segment
 * that carries the density.
 */
export async function tagSrgb(jpeg: Buffer): Promise<Buffer> {
  const segment = await (profileSegment ??= srgbProfileSegment());
  const at = afterLeadingApp1(jpeg);
  return Buffer.concat([jpeg.subarray(0, at), segment, jpeg.subarray(at)]);
}

async function srgbProfileSegment(): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
    .jpeg()
    .withIccProfile('srgb')
    .toBuffer();
  const start = afterLeadingApp1(tagged);
  if (tagged[start] !== 0xff || tagged[start + 1] !== APP2)
    throw new Error('sharp wrote no ICC segment where expected: cannot tag pages as sRGB');
  return Buffer.from(tagged.subarray(start, start + 2 + tagged.readUInt16BE(start + 2)));
}

/** Offset after SOI and, when sharp wrote one (EXIF with the density), the APP1 segment that follows it. */
function afterLeadingApp1(jpeg: Buffer): number {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('not a JPEG');
  return jpeg[2] === 0xff && jpeg[3] === APP1 ? 4 + jpeg.readUInt16BE(4) : 2;
}
