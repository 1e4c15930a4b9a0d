import sharp from 'sharp';
import type { PageCaption } from '../../domain/book';
import { cleanText, escapeXml } from '../cover-preview';

/** Line spacing of a caption, in ems: the editor's CSS uses the same (web/app/editor.js). */
const CAPTION_LINE_HEIGHT = 1.25;
/** Where the first baseline sits below the box's top, in ems (half the leading plus a text face's ascent). */
const FIRST_BASELINE_EM = (CAPTION_LINE_HEIGHT - 1) / 2 + 0.8;

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The customer's text boxes of a page as one transparent SVG over the page: each box at its place on
 * the trim box (0..1), its size in points (the same on paper at any DPI), in its font by family name
 * (the fonts that ship with the project: fonts.conf makes them the ones Pango and librsvg find), its
 * lines wrapped to the box's width as Pango measures them. Undefined when the page has none.
 */
export async function captionsSvg(
  page: { width: number; height: number },
  trim: Box,
  captions: PageCaption[] | undefined,
  dpi: number,
): Promise<Buffer | undefined> {
  if (!captions?.length) return undefined;
  const texts: string[] = [];
  for (const caption of captions) {
    const fontPx = Math.round((caption.sizePt / 72) * dpi);
    const left = Math.round(trim.left + caption.x * trim.width);
    const top = trim.top + caption.y * trim.height;
    const lines = await wrapCaption(caption, fontPx, caption.width * trim.width);
    lines.forEach((line, i) => {
      const y = Math.round(top + fontPx * (FIRST_BASELINE_EM + CAPTION_LINE_HEIGHT * i));
      texts.push(
        `<text x="${left}" y="${y}" font-family="'${caption.font}'" font-size="${fontPx}" fill="#222222">${escapeXml(line)}</text>`,
      );
    });
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}" height="${page.height}" viewBox="0 0 ${page.width} ${page.height}">${texts.join('')}</svg>`,
  );
}

/** Greedy word wrap of each paragraph (the customer's line breaks kept) to `maxWidth` pixels. */
async function wrapCaption(caption: PageCaption, fontPx: number, maxWidth: number): Promise<string[]> {
  const lines: string[] = [];
  for (const paragraph of caption.text.split(/\r\n|\r|\n/).map(cleanText)) {
    let line = '';
    for (const word of paragraph.split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (!line || (await measure(candidate, caption.font, fontPx)) <= maxWidth) line = candidate;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

async function measure(text: string, family: string, fontPx: number): Promise<number> {
  try {
    // The comma ends the family list: without it Pango reads the 3 of "Source Sans 3" as a size.
    const { width } = await sharp({
      text: { text: escapeXml(text), font: `${family}, ${fontPx}px`, wrap: 'none' },
    }).metadata();
    return width;
  } catch {
    return text.length * fontPx * 0.55; // no usable font: an average glyph width
  }
}
