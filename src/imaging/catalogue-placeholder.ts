import sharp from 'sharp';
import { FONTS, svgFontAttributes } from './fonts';

/**
 * A demo catalogue picture made from its path: a soft two-colour gradient picked from the path's
 * hash, a stylised open book, and the picture's name. The demo catalogue ships no photographs;
 * these stand in so a shop trying the service sees its product list with images.
 */
export async function cataloguePlaceholder(assetPath: string): Promise<Buffer> {
  const carousel = assetPath.includes('carousel');
  const [width, height] = carousel ? [1200, 600] : [600, 600];
  const hue = [...assetPath].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 360, 7);
  const label = assetPath
    .replace(/\.[a-z]+$/, '')
    .split('/')
    .slice(-2)
    .join(' · ')
    .replace(/-/g, ' ')
    .toUpperCase();
  const bookW = Math.round(height * 0.6);
  const bookH = Math.round(height * 0.42);
  const x = Math.round((width - bookW) / 2);
  const y = Math.round(height * 0.18);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${hue},55%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},50%,52%)"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <rect x="${x + 8}" y="${y + 10}" width="${bookW}" height="${bookH}" rx="6" fill="rgba(0,0,0,0.18)"/>
  <rect x="${x}" y="${y}" width="${bookW / 2}" height="${bookH}" fill="#fdfaf4"/>
  <rect x="${x + bookW / 2}" y="${y}" width="${bookW / 2}" height="${bookH}" fill="#f6f1e7"/>
  <rect x="${x + bookW * 0.06}" y="${y + bookH * 0.08}" width="${bookW * 0.38}" height="${bookH * 0.84}" fill="hsl(${(hue + 180) % 360},35%,60%)"/>
  <rect x="${x + bookW * 0.56}" y="${y + bookH * 0.08}" width="${bookW * 0.38}" height="${bookH * 0.4}" fill="hsl(${(hue + 200) % 360},30%,68%)"/>
  <rect x="${x + bookW * 0.56}" y="${y + bookH * 0.52}" width="${bookW * 0.38}" height="${bookH * 0.4}" fill="hsl(${(hue + 160) % 360},30%,55%)"/>
  <text x="50%" y="${Math.round(height * 0.82)}" ${svgFontAttributes({ family: FONTS.sans, bold: false })} font-size="${Math.round(height / 18)}" fill="#1d1d1f" text-anchor="middle">${escapeXml(label)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
