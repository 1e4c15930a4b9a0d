import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { request } from './http';
import { waitFor } from './wait';

export interface PrintedPage {
  png: Buffer;
  /** The trim box in the PNG's pixels: the page less 3 mm of bleed all round (A4 landscape: 297 x 210 mm). */
  trim: { left: number; top: number; width: number; height: number };
}

/**
 * The first pages of an order's interior.pdf as the printer gets it, rendered by poppler's pdftoppm
 * at 100 DPI: what the paper shows, to compare with what the editor showed.
 */
export async function printedPages(
  apiUrl: string,
  orderId: string,
  auth: Record<string, string>,
  { pages = 2, timeoutMs = 240_000 } = {},
): Promise<PrintedPage[]> {
  const printFiles = () => request(apiUrl, 'GET', `/v2/order/print-files?orderId=${orderId}`, { headers: auth });
  await waitFor(async () => (await printFiles()).body.lines?.[0]?.printFiles !== undefined, timeoutMs, 'print files');
  const pdf = Buffer.from(
    await (await fetch((await printFiles()).body.lines[0].printFiles.interiorPdfUrl)).arrayBuffer(),
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'interior-'));
  try {
    writeFileSync(path.join(dir, 'interior.pdf'), pdf);
    execFileSync('pdftoppm', ['-f', '1', '-l', String(pages), '-r', '100', '-png', 'interior.pdf', 'page'], {
      cwd: dir,
    });
    return Promise.all(
      Array.from({ length: pages }, async (_, i) => {
        const png = readFileSync(path.join(dir, `page-${String(i + 1).padStart(2, '0')}.png`));
        const { width, height } = await sharp(png).metadata();
        const [bleedX, bleedY] = [Math.round((width * 3) / 303), Math.round((height * 3) / 216)];
        return { png, trim: { left: bleedX, top: bleedY, width: width - 2 * bleedX, height: height - 2 * bleedY } };
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
