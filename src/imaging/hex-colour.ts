/**
 * The red, green and blue bytes of a "#rgb" or "#rrggbb" colour; anything else is a RangeError
 * naming `name`. Colours reach SVG and libvips from options, so nothing else may pass.
 */
export function hexColourBytes(colour: string, name: string): Buffer {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) throw new RangeError(`${name} must be "#rgb" or "#rrggbb", got ${JSON.stringify(colour)}`);
  return Buffer.from(hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex, 'hex');
}
