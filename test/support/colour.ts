/**
 * Colour arithmetic for tests: the expected result of a colour conversion, computed from the
 * published primaries, to check what libvips (lcms2) made. Test oracles only; the service converts
 * colour through libvips.
 */

type Rgb = [number, number, number];
type Matrix = [Rgb, Rgb, Rgb];

/** sRGB's (IEC 61966-2-1) and Display P3's linear RGB to CIE XYZ, both D65, both with the sRGB tone curve. */
const SRGB_TO_XYZ: Matrix = [
  [0.4123908, 0.35758434, 0.18048079],
  [0.21263901, 0.71516868, 0.07219232],
  [0.01933082, 0.11919478, 0.95053215],
];
const P3_TO_XYZ: Matrix = [
  [0.48657095, 0.26566769, 0.19821729],
  [0.22897456, 0.69173852, 0.07928691],
  [0, 0.04511338, 1.04394437],
];
const D65: Rgb = [0.95047, 1, 1.08883];

const multiply = (m: Matrix, v: Rgb): Rgb => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as Rgb;

function invert(m: Matrix): Matrix {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

const decode = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const encode = (c: number) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** A Display P3 colour (0..255) as sRGB (0..255), relative colorimetric: out-of-gamut channels clipped. */
export function p3ToSrgb(p3: Rgb): Rgb {
  const linear = multiply(invert(SRGB_TO_XYZ), multiply(P3_TO_XYZ, p3.map(decode) as Rgb));
  return linear.map((c) => encode(Math.min(1, Math.max(0, c)))) as Rgb;
}

/** CIELAB (D65) of an sRGB colour (0..255). */
function srgbToLab(rgb: Rgb): Rgb {
  const xyz = multiply(SRGB_TO_XYZ, rgb.map(decode) as Rgb);
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [fx, fy, fz] = xyz.map((v, i) => f(v / D65[i]));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE76 colour difference (ΔE*ab, the Euclidean distance in CIELAB) of two sRGB colours. */
export function deltaE76(a: Rgb, b: Rgb): number {
  const [la, lb] = [srgbToLab(a), srgbToLab(b)];
  return Math.hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}
