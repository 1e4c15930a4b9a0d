import { parentPort } from 'node:worker_threads';
import decodeHeif from 'heic-decode';
import type { HeicDecodeReply, HeicDecodeRequest } from './heic-decode-job';

/**
 * A worker thread of the HEIC decoder pool (heic-wasm-pool.ts): decodes the HEIC bytes it is
 * sent with libheif in WebAssembly and sends back the RGBA pixels. The decode is seconds of
 * synchronous WebAssembly for a 12 MP photo: here it blocks this thread, not the API's event loop.
 */
parentPort!.on('message', async ({ id, bytes }: HeicDecodeRequest) => {
  let reply: HeicDecodeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const { width, height, data } = await decodeHeif({ buffer: new Uint8Array(bytes) });
    reply = {
      id,
      width,
      height,
      data: data.buffer as ArrayBuffer,
      byteOffset: data.byteOffset,
      byteLength: data.byteLength,
    };
    transfer = [data.buffer as ArrayBuffer];
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply, transfer);
});
