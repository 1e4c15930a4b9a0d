import { nativeHeicDecoder } from './heic-native';
import type { HeicPixels } from './heic-pixels';
import { decodeHeicInWasm } from './heic-wasm-pool';

/** HEIC_DECODER: `auto` takes the system's libheif when it loads, else WebAssembly; the others insist. */
export type HeicDecoderChoice = 'auto' | 'native' | 'wasm';

/** Which decoder HEIC photos go to, for the process's start log line. */
export interface HeicDecoderInUse {
  decoder: 'native' | 'wasm';
  /** The system libheif's version, when it decodes. */
  libheif?: string;
  /** Why the WebAssembly decoder decodes. */
  reason?: string;
}

let decodeWith: ((bytes: Buffer) => Promise<HeicPixels>) | undefined;

/**
 * Chooses the decoder every HEIC of this process goes to. Both are libheif and apply the container's
 * irot/imir; the native one (heic-native.ts) takes half to two thirds of the WebAssembly one's CPU
 * time (heic-wasm-pool.ts), which stays for machines without `libheif1`. Throws for `native` when
 * the library does not load.
 */
export function useHeicDecoder(choice: HeicDecoderChoice): HeicDecoderInUse {
  if (choice === 'wasm') {
    decodeWith = decodeHeicInWasm;
    return { decoder: 'wasm', reason: 'HEIC_DECODER=wasm' };
  }
  try {
    const native = nativeHeicDecoder();
    decodeWith = (bytes) => native.decode(bytes);
    return { decoder: 'native', libheif: native.version };
  } catch (error) {
    const why = `libheif.so.1 did not load (${(error as Error).message})`;
    if (choice === 'native')
      throw new Error(`HEIC_DECODER=native, but ${why}: install libheif1 or set HEIC_DECODER=auto`);
    decodeWith = decodeHeicInWasm;
    return { decoder: 'wasm', reason: why };
  }
}

/** The pixels of a HEIC file's primary image, by the chosen decoder (`auto` when none was chosen). */
export function decodeHeicPixels(bytes: Buffer): Promise<HeicPixels> {
  if (!decodeWith) useHeicDecoder('auto');
  return decodeWith!(bytes);
}
