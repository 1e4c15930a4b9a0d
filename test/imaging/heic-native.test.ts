import { execFileSync } from 'node:child_process';
import { heifEncAvailable as heifEnc } from '../support/heif-enc';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { NotAnImageError } from '../../src/imaging/errors';
import { decodeHeic } from '../../src/imaging/heic';
import { useHeicDecoder } from '../../src/imaging/heic-decoder';
import { nativeHeicDecoder } from '../../src/imaging/heic-native';
import type { HeicPixels } from '../../src/imaging/heic-pixels';

/**
 * The two HEIC decoders, the system's libheif through koffi (heic-native.ts) and libheif in
 * WebAssembly (heic-wasm-pool.ts), give the same photo and the same refusals. Needs Debian's
 * heif-enc and libheif1 (scripts/install-test-tools.sh); skipped without them.
 */
const libheif = (() => {
  try {
    nativeHeicDecoder();
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
let heic: Buffer;

beforeAll(async () => {
  if (!heifEnc) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'heic-native-'));
  // Gradients, shapes and grain: every decoder step (prediction, deblocking, colour conversion) has work.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><defs><linearGradient id="g"><stop offset="0" stop-color="#d04020"/><stop offset="1" stop-color="#2060e0"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="400" cy="300" r="180" fill="#f0e020"/><rect x="700" y="420" width="380" height="300" fill="#208040"/></svg>`;
  const grain = await sharp({
    create: {
      width: 1200,
      height: 800,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  const jpeg = await sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width: 1200, height: 800, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 92 })
    .toBuffer();
  await writeFile(path.join(dir, 'in.jpg'), jpeg);
  execFileSync('heif-enc', ['-q', '60', '-o', path.join(dir, 'photo.heic'), path.join(dir, 'in.jpg')]);
  heic = await readFile(path.join(dir, 'photo.heic'));
}, 120_000);

afterAll(async () => {
  useHeicDecoder('auto');
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function decodedWith(choice: 'native' | 'wasm', bytes: Buffer) {
  useHeicDecoder(choice);
  return decodeHeic(bytes);
}

/** The photo's RGB bytes whatever the decoder's channel count. */
function rgbOf(pixels: HeicPixels): Buffer {
  if (pixels.channels === 3) return pixels.data;
  const rgb = Buffer.alloc(pixels.width * pixels.height * 3);
  for (let i = 0, o = 0; i < pixels.data.length; i += 4, o += 3) pixels.data.copy(rgb, o, i, i + 3);
  return rgb;
}

/** Which way a decode ended: the NotAnImageError's reason, or `decoded`. */
async function outcome(choice: 'native' | 'wasm', bytes: Buffer): Promise<string> {
  try {
    await decodedWith(choice, bytes);
    return 'decoded';
  } catch (error) {
    if (error instanceof NotAnImageError) return error.reason;
    throw error;
  }
}

describe.skipIf(!heifEnc || !libheif)('the native HEIC decoder (system libheif through koffi)', () => {
  it("decodes a heif-enc HEIC to the WebAssembly decoder's pixels, within a few levels", async () => {
    const native = await decodedWith('native', heic);
    const wasm = await decodedWith('wasm', heic);
    expect(native!.pixels.channels).toBe(3);
    expect(wasm!.pixels.channels).toBe(4);
    expect([native!.pixels.width, native!.pixels.height]).toEqual([1200, 800]);
    expect([wasm!.pixels.width, wasm!.pixels.height]).toEqual([1200, 800]);
    const [a, b] = [rgbOf(native!.pixels), rgbOf(wasm!.pixels)];
    let sum = 0;
    let max = 0;
    let beyondTwo = 0;
    for (let i = 0; i < a.length; i++) {
      const d = Math.abs(a[i]! - b[i]!);
      sum += d;
      if (d > max) max = d;
      if (d > 2) beyondTwo++;
    }
    // Both are libheif (Debian's 1.15 and the WebAssembly build's later one): the same HEVC decode, a
    // colour conversion whose rounding differs here and there. Measured: 0.06 levels on average, 0.03 %
    // of the bytes more than 2 levels apart, at most 8.
    expect(sum / a.length).toBeLessThan(0.5);
    expect(beyondTwo / a.length).toBeLessThan(0.005);
    expect(max).toBeLessThanOrEqual(16);
    expect(native!.orientation).toBe(wasm!.orientation);
    // And the photo itself: the yellow disc where the JPEG had it.
    const at = (400 + 300 * 1200) * 3;
    expect(a[at]).toBeGreaterThan(180);
    expect(a[at + 1]).toBeGreaterThan(180);
    expect(a[at + 2]).toBeLessThan(120);
  });

  it('refuses a truncated HEIC as corrupt, as the WebAssembly decoder does', async () => {
    for (const share of [0.5, 0.9]) {
      const truncated = heic.subarray(0, Math.floor(heic.length * share));
      expect(await outcome('native', truncated)).toBe('corrupt');
      expect(await outcome('wasm', truncated)).toBe('corrupt');
    }
  });

  it('survives random bytes behind a HEIC header: a refusal or a picture, never a crash', async () => {
    // The container's boxes whole, the HEVC data garbage: libheif may refuse it or decode noise (libde265
    // conceals errors, in WebAssembly too); the process must live on either way.
    const mdat = heic.indexOf('mdat', 0, 'latin1');
    expect(mdat).toBeGreaterThan(0);
    const garbled = Buffer.concat([heic.subarray(0, mdat + 4), randomBytes(heic.length - mdat - 4)]);
    const native = await outcome('native', garbled);
    expect(['decoded', 'corrupt']).toContain(native);
    // A bare `ftyp heic` then noise: no container to read. The decoder refuses it before sharp is asked.
    const ftyp = Buffer.from('0000001866747970686569630000000068656963' + '6d696631', 'hex');
    const noise = Buffer.concat([ftyp, randomBytes(64 * 1024)]);
    await expect(nativeHeicDecoder().decode(noise)).rejects.toThrow(/libheif/);
    await expect(nativeHeicDecoder().decode(Buffer.alloc(0))).rejects.toThrow(/libheif/);
    // And a good photo still decodes after all that.
    expect((await decodedWith('native', heic))!.pixels.width).toBe(1200);
  });

  it('decodes off the event loop', async () => {
    const decoder = nativeHeicDecoder();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    // Four at once: more than the decode slots, so queued ones wait their turn.
    const started = performance.now();
    const decoded = await Promise.all(Array.from({ length: 4 }, () => decoder.decode(heic)));
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(decoded.map((p) => p.width)).toEqual([1200, 1200, 1200, 1200]);
    // A synchronous decode would let the timer fire once per decode at most.
    expect(ticks).toBeGreaterThan(Math.min(20, elapsed / 10));
  });
});

describe('HEIC_DECODER', () => {
  it('chooses the decoder: auto by default, native or wasm, nothing else', () => {
    expect(loadConfig({}).heicDecoder).toBe('auto');
    expect(loadConfig({ HEIC_DECODER: 'wasm' }).heicDecoder).toBe('wasm');
    expect(() => loadConfig({ HEIC_DECODER: 'ffmpeg' })).toThrow(/HEIC_DECODER must be one of auto, native, wasm/);
  });

  it('keeps the WebAssembly decoder when asked, and says so', () => {
    expect(useHeicDecoder('wasm')).toEqual({ decoder: 'wasm', reason: 'HEIC_DECODER=wasm' });
    const auto = useHeicDecoder('auto');
    expect(auto.decoder).toBe(libheif ? 'native' : 'wasm');
    if (!libheif) expect(auto.reason).toMatch(/libheif\.so\.1 did not load/);
  });
});
