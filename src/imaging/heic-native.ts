import os from 'node:os';
import koffi from 'koffi';
import type { HeicPixels } from './heic-pixels';

/**
 * HEIC decoded by the system's libheif (Debian's `libheif1` with libde265), called through koffi's
 * FFI: the same library the WebAssembly decoder is compiled from, natively, at half to two thirds of
 * its CPU time for a 12 MP photo (docs/performance.md). Nothing is built or downloaded: koffi ships
 * its prebuilt binding in its npm package, and `libheif.so.1` comes from the operating system (the
 * image's `libheif1`); where it does not load, heic-decoder.ts keeps the WebAssembly decoder.
 *
 * The one long call, heif_decode_image (the HEVC decode and colour conversion), runs through koffi's
 * `.async` on a thread of libuv's pool, so the event loop stays free; the cheap ones (parsing the
 * container's boxes, handles, releases, the copy of the pixels) run on the calling thread. libheif
 * bounds-checks what it parses and answers an error for a truncated file (test/imaging/heic-native.test.ts).
 * Unlike WebAssembly's, its memory is the process's own: a memory-safety bug in libheif or libde265
 * would reach the process; Debian's security updates to libheif1 and libde265-0 are what guard it.
 */

/** libheif's `struct heif_error`, returned by value. */
interface HeifError {
  code: number;
  subcode: number;
  message: string | null;
}

const HEIF_COLORSPACE_RGB = 1;
const HEIF_CHROMA_INTERLEAVED_RGB = 10;
const HEIF_CHANNEL_INTERLEAVED = 10;
/** heif_decoding_options (heif.h of 1.15): byte offset of the version-2 flag convert_hdr_to_8bit on LP64. */
const OPTIONS_CONVERT_HDR_TO_8BIT = 40;
const OPTIONS_SIZE = 56;

/**
 * libuv's pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) also runs sharp's pipelines
 * and file reads: HEIC decodes take at most one thread per core and always leave one thread free.
 */
function decodeSlots(): number {
  const uvThreads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism(), uvThreads - 1));
}

export interface NativeHeicDecoder {
  /** libheif's version, as `heif_get_version` answers it. */
  version: string;
  /** The primary image's 8-bit RGB pixels, upright by the container's irot/imir; rejects when libheif cannot decode it. */
  decode(bytes: Buffer): Promise<HeicPixels>;
}

let loaded: { decoder: NativeHeicDecoder } | { error: Error } | undefined;

/** The native decoder, loaded on first use; throws, each time, why `libheif.so.1` or one of its symbols did not load. */
export function nativeHeicDecoder(): NativeHeicDecoder {
  if (!loaded) {
    try {
      loaded = { decoder: load() };
    } catch (error) {
      loaded = { error: error instanceof Error ? error : new Error(String(error)) };
    }
  }
  if ('error' in loaded) throw loaded.error;
  return loaded.decoder;
}

function load(): NativeHeicDecoder {
  const lib = koffi.load('libheif.so.1');
  koffi.struct('heif_error', { code: 'int', subcode: 'int', message: 'const char*' });
  const fn = {
    version: lib.func('const char* heif_get_version()'),
    init: lib.func('heif_error heif_init(void* params)'),
    contextAlloc: lib.func('void* heif_context_alloc()'),
    contextFree: lib.func('void heif_context_free(void* ctx)'),
    maxThreads: lib.func('void heif_context_set_max_decoding_threads(void* ctx, int max_threads)'),
    read: lib.func(
      'heif_error heif_context_read_from_memory_without_copy(void* ctx, const void* mem, size_t size, void* options)',
    ),
    primary: lib.func('heif_error heif_context_get_primary_image_handle(void* ctx, _Out_ void** handle)'),
    handleRelease: lib.func('void heif_image_handle_release(void* handle)'),
    optionsAlloc: lib.func('void* heif_decoding_options_alloc()'),
    optionsFree: lib.func('void heif_decoding_options_free(void* options)'),
    decode: lib.func(
      'heif_error heif_decode_image(void* handle, _Out_ void** image, int colorspace, int chroma, void* options)',
    ),
    imageRelease: lib.func('void heif_image_release(void* image)'),
    width: lib.func('int heif_image_get_width(void* image, int channel)'),
    height: lib.func('int heif_image_get_height(void* image, int channel)'),
    bitsPerPixel: lib.func('int heif_image_get_bits_per_pixel(void* image, int channel)'),
    plane: lib.func('const uint8_t* heif_image_get_plane_readonly(void* image, int channel, _Out_ int* stride)'),
  };
  // Registers libde265 once for the process (reference-counted; never undone, the library stays loaded).
  check(fn.init(null) as HeifError, 'heif_init');
  const version = fn.version() as string;

  const decodeAsync = (handle: unknown, image: unknown[], options: unknown): Promise<HeifError> =>
    new Promise((resolve, reject) => {
      fn.decode.async(
        handle,
        image,
        HEIF_COLORSPACE_RGB,
        HEIF_CHROMA_INTERLEAVED_RGB,
        options,
        (error: unknown, result: HeifError) => {
          if (error) reject(error as Error);
          else resolve(result);
        },
      );
    });

  const decode = async (bytes: Buffer): Promise<HeicPixels> => {
    const ctx = fn.contextAlloc();
    if (!ctx) throw new Error('libheif could not allocate a context');
    let handle: unknown = null;
    let image: unknown = null;
    let options: unknown = null;
    try {
      // Tiles (an iPhone's HEIC is a grid of 512 px tiles) decode on the decoding thread: photos
      // decode side by side instead, one per core (decodeSlots).
      fn.maxThreads(ctx, 0);
      // Without a copy: `bytes` is referenced by this closure until the context is freed below.
      check(fn.read(ctx, bytes, bytes.length, null) as HeifError, 'reading the HEIF container');
      const handleOut: unknown[] = [null];
      check(fn.primary(ctx, handleOut) as HeifError, 'finding the primary image');
      handle = handleOut[0];
      options = fn.optionsAlloc();
      if (!options) throw new Error('libheif could not allocate decoding options');
      const fields = new Uint8Array(koffi.view(options, OPTIONS_SIZE));
      // An HDR (10-bit) photo comes out as 8 bits (the struct's version 2 on). Decoding stays lenient,
      // as in WebAssembly: libheif already refuses a file cut short (its items must lie inside it), and
      // libde265 conceals damage in the HEVC data rather than failing on warnings it raises for some phones' files.
      if (fields[0]! >= 2) fields[OPTIONS_CONVERT_HDR_TO_8BIT] = 1;
      const imageOut: unknown[] = [null];
      check(await decodeAsync(handle, imageOut, options), 'decoding the image');
      image = imageOut[0];
      return copyPixels(image);
    } finally {
      if (image) fn.imageRelease(image);
      if (handle) fn.handleRelease(handle);
      if (options) fn.optionsFree(options);
      fn.contextFree(ctx);
    }
  };

  /** The decoded image's RGB rows copied into a Buffer of our own (libheif's plane is freed with the image, and its rows may be padded). */
  const copyPixels = (image: unknown): HeicPixels => {
    const width = fn.width(image, HEIF_CHANNEL_INTERLEAVED) as number;
    const height = fn.height(image, HEIF_CHANNEL_INTERLEAVED) as number;
    const bits = fn.bitsPerPixel(image, HEIF_CHANNEL_INTERLEAVED) as number;
    if (width <= 0 || height <= 0 || bits !== 24)
      throw new Error(`libheif answered an image of ${width} x ${height} at ${bits} bits a pixel, not 8-bit RGB`);
    const strideOut = [0];
    const plane = fn.plane(image, HEIF_CHANNEL_INTERLEAVED, strideOut);
    const stride = strideOut[0]!;
    const row = width * 3;
    if (!plane || stride < row) throw new Error('libheif answered no interleaved RGB plane');
    const source = new Uint8Array(koffi.view(plane, stride * (height - 1) + row));
    const data = Buffer.allocUnsafe(row * height);
    if (stride === row) data.set(source);
    else for (let y = 0; y < height; y++) data.set(source.subarray(y * stride, y * stride + row), y * row);
    return { width, height, channels: 3, data };
  };

  const slots = decodeSlots();
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    version,
    async decode(bytes) {
      if (running < slots) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing decode hands its slot over
      try {
        return await decode(bytes);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

function check(error: HeifError, step: string): void {
  if (error.code !== 0) throw new Error(`libheif, ${step}: ${error.message ?? `error ${error.code}.${error.subcode}`}`);
}
