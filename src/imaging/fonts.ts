import { existsSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { projectPath } from '../config/project-root';

/**
 * The faces every printed and previewed text is set in, by the family names their files declare.
 * Both are SIL Open Font License 1.1, from pinned npm packages (fonts/README.md).
 */
export const FONTS = {
  /** Cover subtitle, spine, back cover: Adobe's Source Sans 3. */
  sans: 'Source Sans 3',
  /** Cover title and page texts (a dedication): Lora. */
  serif: 'Lora',
} as const;
export type FontFamily = (typeof FONTS)[keyof typeof FONTS];

/** The files fontconfig is given, and the editor loads (`/web/fonts/<name>`), by their file names. */
export const FONT_FILES: Record<string, { family: FontFamily; bold: boolean; path: string }> = Object.fromEntries(
  (
    [
      ['SourceSans3_400Regular.ttf', FONTS.sans, false, '@expo-google-fonts/source-sans-3/400Regular'],
      ['SourceSans3_700Bold.ttf', FONTS.sans, true, '@expo-google-fonts/source-sans-3/700Bold'],
      ['Lora_400Regular.ttf', FONTS.serif, false, '@expo-google-fonts/lora/400Regular'],
      ['Lora_700Bold.ttf', FONTS.serif, true, '@expo-google-fonts/lora/700Bold'],
    ] as const
  ).map(([name, family, bold, folder]) => [name, { family, bold, path: projectPath('node_modules', folder, name) }]),
);

/**
 * fontconfig's configuration for this process: fonts/fonts.conf lists the four files above and nothing
 * of the host's (no system folder, no include), so librsvg and Pango can only find the shipped faces
 * and a host without fonts (the slim image) draws the same text as one with many. fontconfig reads it
 * once, when the first text is drawn, so it is set here, when any module that draws text is loaded.
 * Node writes process.env through to the C environment only on the main thread of a process (a render
 * child process is one); a worker thread would see fontconfig's defaults, so it is refused.
 */
const FONTCONFIG_FILE = projectPath('fonts', 'fonts.conf');
if (!isMainThread) throw new Error('text is drawn on the main thread of a process only (src/imaging/fonts.ts)');
for (const [name, file] of Object.entries(FONT_FILES)) {
  if (!existsSync(file.path)) throw new Error(`font ${name} is not installed at ${file.path}: run npm ci`);
}
process.env.FONTCONFIG_FILE = FONTCONFIG_FILE;

/** A Pango font description (sharp's text input) of the family at a pixel size; the comma ends the family name. */
export function pangoFont(font: TextFont, sizePx: number): string {
  return `${font.family},${font.bold ? ' Bold' : ''} ${sizePx}px`;
}

/** A face of the shipped families: what a text is measured and drawn with. */
export interface TextFont {
  family: FontFamily;
  bold: boolean;
}

/** The SVG attributes that draw a text in `font` (measured with pangoFont: both name the same face). */
export function svgFontAttributes(font: TextFont): string {
  return `font-family="${font.family}" font-weight="${font.bold ? 'bold' : 'normal'}"`;
}
