/** Request bodies shared by the benchmark rows and the profile script. */

/** `POST /v2/generate` without photos: a new user each time, the demo catalogue's first product. */
export function generateBodies(count: number, sku = 'PB-HC-A4-P', psp = 'local'): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({ userId: `gen-user-${i}`, sku, psp, marketId: 0, language: 'en' }),
  );
}
