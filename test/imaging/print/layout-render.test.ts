import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_LAYOUTS } from '../../../src/domain/book';
import { renderPrintPage } from '../../../src/imaging/print/render-page';
import { placeOnLayout, layoutSlots } from '../../../src/services/projects/page-layouts';
import { A4, sampleAt, solidJpeg } from './print-images';

/** One colour a slot, so each slot's photo can be found on the rendered page. */
const COLOURS: [string, number[]][] = [
  ['#ff0000', [255, 0, 0]],
  ['#0000ff', [0, 0, 255]],
  ['#00c000', [0, 192, 0]],
  ['#ffff00', [255, 255, 0]],
  ['#ff00ff', [255, 0, 255]],
  ['#00ffff', [0, 255, 255]],
];
/** A4 at 100 DPI: enough pixels to find each slot, few enough to render thirteen pages quickly. */
const FORMAT = { ...A4, dpi: 100 };
const photos = new Map<string, Buffer>();

beforeAll(async () => {
  for (const [i, [hex]] of COLOURS.entries()) photos.set(`c${i}`, await solidJpeg(600, 600, hex));
});

function expectNear(received: number[], expected: number[], what: string) {
  for (const [i, value] of expected.entries())
    expect(Math.abs(received[i] - value), `${what}: ${received}`).toBeLessThanOrEqual(12);
}

describe('every page layout prints', () => {
  // A spread runs over two pages: test/imaging/print/spread-print.test.ts.
  it.each(PAGE_LAYOUTS.filter((l) => l !== 'blank' && l !== 'spread'))(
    '%s: each slot holds its photo, the margins stay paper',
    async (layout) => {
      const slots = layoutSlots(layout);
      const page = {
        ...placeOnLayout(
          layout,
          slots.map((_, i) => `c${i}`),
        ),
        number: 1,
      };
      const rendered = await renderPrintPage({
        page,
        format: FORMAT,
        loadPhoto: async (id) => photos.get(id)!,
        colorCorrection: false,
      });
      const bleed = Math.round((FORMAT.bleedMm / 25.4) * FORMAT.dpi);
      const trim = { width: rendered.widthPx - 2 * bleed, height: rendered.heightPx - 2 * bleed };
      expect(rendered.placements).toHaveLength(slots.length);
      for (const [i, slot] of slots.entries()) {
        const x = bleed + (slot.x + slot.width / 2) * trim.width;
        const y = bleed + (slot.y + slot.height / 2) * trim.height;
        expectNear(await sampleAt(rendered.jpeg, x, y, 2), COLOURS[i][1], `${layout} slot ${i}`);
      }
      // The page's corner (inside the 6% margin) is white paper.
      expectNear(
        await sampleAt(rendered.jpeg, bleed + 0.02 * trim.width, bleed + 0.02 * trim.height, 2),
        [255, 255, 255],
        'corner',
      );
    },
  );
});
