import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HeicDecodeReply, HeicDecodeRequest } from './heic-decode-job';
import type { HeicPixels } from './heic-pixels';

/** An idle worker exits after this, giving its WebAssembly memory (some 100 MB at 12 MP) back. */
const IDLE_EXIT_MS = 30_000;

/** The worker's module: the bundle's own entry under `npm start`, the TypeScript source under tsx. */
function workerModule(): { file: string; execArgv: string[] } {
  const bundled = import.meta.url.endsWith('.js');
  const file = fileURLToPath(new URL(bundled ? './heic-decode-worker.js' : './heic-decode-worker.ts', import.meta.url));
  return { file, execArgv: bundled ? [] : ['--import', 'tsx'] };
}

interface Job {
  bytes: Buffer;
  resolve: (pixels: HeicPixels) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  job?: Job & { id: number };
  idleTimer?: NodeJS.Timeout;
}

/**
 * The decoder where the system's libheif does not load (heic-decoder.ts). HEIC decodes (libheif in WebAssembly: seconds of synchronous work for a 12 MP photo) run in worker
 * threads, one per core: two photos decode at once on two cores, and the event loop keeps serving
 * requests meanwhile. Workers start on first use and exit when idle; a worker that dies fails its
 * photo's decode and is replaced by the next one.
 */
class HeicDecoderPool {
  private readonly size = Math.max(1, os.availableParallelism());
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  decode(bytes: Buffer): Promise<HeicPixels> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.workers.find((w) => !w.job) ?? (this.workers.length < this.size ? this.start() : undefined);
      if (!idle) return;
      const job = this.queue.shift()!;
      clearTimeout(idle.idleTimer);
      idle.job = { ...job, id: this.nextId++ };
      idle.worker.ref();
      // A copy of the bytes is transferred: the caller's Buffer may be a slice of a shared pool.
      const bytes = job.bytes.buffer.slice(job.bytes.byteOffset, job.bytes.byteOffset + job.bytes.byteLength);
      const request: HeicDecodeRequest = { id: idle.job.id, bytes: bytes as ArrayBuffer };
      idle.worker.postMessage(request, [request.bytes]);
    }
  }

  private start(): PoolWorker {
    const { file, execArgv } = workerModule();
    const entry: PoolWorker = { worker: new Worker(file, { execArgv }) };
    this.workers.push(entry);
    entry.worker.on('message', (reply: HeicDecodeReply) => {
      const job = entry.job;
      if (!job || job.id !== reply.id) return;
      entry.job = undefined;
      this.idle(entry);
      if ('error' in reply) job.reject(new Error(reply.error));
      else
        job.resolve({
          width: reply.width,
          height: reply.height,
          channels: 4,
          data: Buffer.from(reply.data, reply.byteOffset, reply.byteLength),
        });
      this.dispatch();
    });
    const gone = (error: Error) => {
      const index = this.workers.indexOf(entry);
      if (index < 0) return; // 'error' is followed by 'exit': handled once
      this.workers.splice(index, 1);
      entry.job?.reject(error);
      entry.job = undefined;
      clearTimeout(entry.idleTimer);
      this.dispatch();
    };
    entry.worker.on('error', gone);
    entry.worker.on('exit', (code) => gone(new Error(`the HEIC decoder thread exited (code ${code})`)));
    return entry;
  }

  private idle(entry: PoolWorker): void {
    // An idle worker keeps no process alive, and exits after a while.
    entry.worker.unref();
    entry.idleTimer = setTimeout(() => void entry.worker.terminate(), IDLE_EXIT_MS);
    entry.idleTimer.unref();
  }
}

const pool = new HeicDecoderPool();

/** The RGBA pixels of a HEIC file's primary image, decoded by libheif in WebAssembly in the pool's worker threads. */
export function decodeHeicInWasm(bytes: Buffer): Promise<HeicPixels> {
  return pool.decode(bytes);
}
