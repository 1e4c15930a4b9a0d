import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cleanText,
  escapeXml,
  fitText,
  NotAnImageError,
  renderCoverPreview,
  textOverlaySvg,
} from '../../src/imaging/cover-preview';
import { FONTS, pangoFont } from '../../src/imaging/fonts';
import { noise, redLeftBlueRight, regionBrightness, regionMeans, regionStats, scene, solid } from './images';

let photo: Buffer;
let white: Buffer;

beforeAll(async () => {
  photo = await scene(1600, 1200).jpeg().toBuffer();
  white = await solid(1600, 1200, '#ffffff').jpeg().toBuffer();
});

describe('renderCoverPreview', () => {
  it.each([
    [800, 600],
    [600, 800],
    [1000, 1000],
    [123, 457],
    [40, 30],
  ])('renders exactly %ix%i, with and without a photo', async (widthPx, heightPx) => {
    for (const input of [photo, undefined]) {
      const cover = await renderCoverPreview({
        widthPx,
        heightPx,
        photo: input,
        title: 'Our summer',
        subtitle: '2023',
      });
      const metadata = await sharp(cover).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', widthPx, heightPx]);
    }
  });

  it('shows the photo: its centre differs from the plain background', async () => {
    const red = await solid(1200, 900, '#e02020').jpeg().toBuffer();
    const centre = { left: 350, top: 200, width: 100, height: 100 };
    const withPhoto = await regionMeans(
      await renderCoverPreview({ widthPx: 800, heightPx: 600, photo: red, title: 'Title' }),
      centre,
    );
    const without = await regionMeans(
      await renderCoverPreview({ widthPx: 800, heightPx: 600, title: 'Title' }),
      centre,
    );
    expect(withPhoto[0]).toBeGreaterThan(200); // the red photo
    expect(Math.abs(withPhoto[0] - without[0]) + Math.abs(withPhoto[2] - without[2])).toBeGreaterThan(100);
  });

  it('uses the background colour given when there is no photo', async () => {
    const cover = await renderCoverPreview({ widthPx: 200, heightPx: 200, title: '', backgroundColor: '#10a040' });
    const [r, g, b] = await regionMeans(cover, { left: 0, top: 0, width: 200, height: 200 });
    expect(r).toBeCloseTo(0x10, -1);
    expect(g).toBeCloseTo(0xa0, -1);
    expect(b).toBeCloseTo(0x40, -1);
    await expect(
      renderCoverPreview({ widthPx: 200, heightPx: 200, title: '', backgroundColor: 'url(#x)' }),
    ).rejects.toThrow(RangeError);
  });

  it('turns the photo upright by its EXIF orientation before cropping', async () => {
    // Stored red left / blue right with orientation 6: displayed red on top, blue below.
    const rotated = await redLeftBlueRight(1200, 800).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const cover = await renderCoverPreview({ widthPx: 400, heightPx: 400, photo: rotated, title: '' });
    const [topR, , topB] = await regionMeans(cover, { left: 0, top: 10, width: 400, height: 100 });
    const [bottomR, , bottomB] = await regionMeans(cover, { left: 0, top: 290, width: 400, height: 100 });
    expect(topR).toBeGreaterThan(200);
    expect(topB).toBeLessThan(60);
    expect(bottomB).toBeGreaterThan(200);
    expect(bottomR).toBeLessThan(60);
  });

  it('crops to the salient part of the photo (attention strategy), not blindly to the centre', async () => {
    // A wide, flat grey photo with a colourful, detailed subject at its right edge.
    const subject = await noise(300, 700, 3).modulate({ saturation: 2 }).tint('#e03020').png().toBuffer();
    const wide = await solid(1600, 800, '#808080')
      .composite([{ input: subject, left: 1260, top: 50 }])
      .jpeg()
      .toBuffer();
    const cover = await renderCoverPreview({ widthPx: 400, heightPx: 400, photo: wide, title: '' });
    // A centred square crop (x 400..1200 of the original) would be all grey.
    const [r, g] = await regionMeans(cover, { left: 0, top: 0, width: 400, height: 400 });
    expect(r - g).toBeGreaterThan(20);
  });

  it('darkens a band at the bottom behind the title, and nothing above it', async () => {
    for (const input of [white, undefined]) {
      const titled = await renderCoverPreview({
        widthPx: 800,
        heightPx: 600,
        photo: input,
        title: 'Summer in Provence',
        subtitle: 'July 2023',
      });
      const plain = await renderCoverPreview({ widthPx: 800, heightPx: 600, photo: input, title: '' });
      // A strip of the band clear of the centred text (the left margin), and the band as a whole.
      const bandMargin = { left: 0, top: 560, width: 30, height: 40 };
      const band = { left: 0, top: 520, width: 800, height: 80 };
      const top = { left: 0, top: 0, width: 800, height: 300 };
      expect(await regionBrightness(titled, bandMargin)).toBeLessThan(
        (await regionBrightness(plain, bandMargin)) * 0.6,
      );
      expect(await regionBrightness(titled, band)).toBeLessThan(await regionBrightness(plain, band));
      expect(Math.abs((await regionBrightness(titled, top)) - (await regionBrightness(plain, top)))).toBeLessThan(2);
    }
  });

  it('draws the text in the band: lighter pixels in the middle of the band than at its margin', async () => {
    const cover = await renderCoverPreview({ widthPx: 800, heightPx: 600, photo: white, title: 'MMMMMMMM' });
    const middle = await regionStats(cover, { left: 250, top: 530, width: 300, height: 60 });
    const margin = await regionStats(cover, { left: 0, top: 530, width: 30, height: 60 });
    expect(middle.max[0]).toBeGreaterThan(230);
    expect(margin.max[0]).toBeLessThan(150);
  });

  it('renders titles with XML special characters without throwing, escaped in the overlay', async () => {
    const title = `Tom & Jerry's <summer> "2023" ]]> <!--`;
    const cover = await renderCoverPreview({
      widthPx: 800,
      heightPx: 600,
      photo,
      title,
      subtitle: '<script>alert("&")</script>',
    });
    expect((await sharp(cover).metadata()).width).toBe(800);

    const svg = (await textOverlaySvg(2000, 600, title, 'a<b'))!; // wide: nothing cut
    expect(svg).toContain('Tom &amp; Jerry&apos;s &lt;summer&gt; &quot;2023&quot; ]]&gt; &lt;!--');
    expect(svg).toContain('a&lt;b');
    expect(svg).not.toMatch(/<summer>|<!--/);
    // librsvg parses it as valid XML (an invalid document would throw here).
    await sharp(Buffer.from(svg)).png().toBuffer();
  });

  it('cuts long titles with an ellipsis so that they fit the cover', async () => {
    const long = 'The very long and winding road through the Provence lavender fields in July '.repeat(3);
    const svg = (await textOverlaySvg(800, 600, long))!;
    expect(svg).toMatch(/The very long and winding[^<]*\u2026<\/text>/);
    expect(svg).not.toContain('fields in July The very long and winding road through');

    // Nothing drawn in the side margins: the text stayed within the cover.
    const cover = await renderCoverPreview({ widthPx: 800, heightPx: 600, photo: white, title: 'W'.repeat(200) });
    for (const left of [0, 784]) {
      const margin = await regionStats(cover, { left, top: 530, width: 16, height: 70 });
      expect(margin.max[0]).toBeLessThan(150);
    }
  });

  it('fits text by measuring it', async () => {
    const bold = { family: FONTS.sans, bold: true };
    expect(await fitText('Short', 40, bold, 600)).toBe('Short');
    const cut = await fitText('Lorem ipsum dolor sit amet, consectetur adipiscing elit', 40, bold, 400);
    expect(cut).toMatch(/^Lorem ipsum.*\u2026$/);
    expect(cut).not.toMatch(/ \u2026$/); // no space before the ellipsis
    const { width } = await sharp({
      text: { text: escapeXml(cut), font: pangoFont(bold, 40), wrap: 'none' },
    }).metadata();
    expect(width).toBeLessThanOrEqual(400);
    expect(width).toBeGreaterThan(300); // and uses the room
    expect(await fitText('Wide', 40, bold, 5)).toBe('');
  });

  it('cleans texts to one printable line', () => {
    expect(cleanText('  a\nb\t\u0000c  \u2028 d ')).toBe('a b c d');
    expect(cleanText('x\uD800y')).toBe('x\uFFFDy');
    expect(cleanText(undefined)).toBe('');
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
  });

  it('draws no band without title and subtitle', async () => {
    expect(await textOverlaySvg(800, 600, '  ', '')).toBeNull();
    const cover = await renderCoverPreview({ widthPx: 800, heightPx: 600, photo: white, title: ' ' });
    expect(await regionBrightness(cover, { left: 0, top: 500, width: 800, height: 100 })).toBeGreaterThan(250);
  });

  it('refuses bad sizes and undecodable photos', async () => {
    for (const [widthPx, heightPx] of [
      [0, 100],
      [100, -1],
      [10.5, 10],
      [100_000, 100],
    ]) {
      await expect(renderCoverPreview({ widthPx, heightPx, title: 'x' })).rejects.toThrow(RangeError);
    }
    const jpeg = await scene(800, 600).jpeg().toBuffer();
    for (const bad of [Buffer.alloc(0), Buffer.from('not a photo'), jpeg.subarray(0, jpeg.length >> 1)]) {
      await expect(renderCoverPreview({ widthPx: 100, heightPx: 100, photo: bad, title: 'x' })).rejects.toBeInstanceOf(
        NotAnImageError,
      );
    }
  });
});
