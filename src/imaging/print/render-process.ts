import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RenderJob, RenderReply } from './render-job';
import type { PhotoPlacement } from './render-page';

/**
 * The nice value of the render process: when the CPU is contended the kernel gives the API (nice 0)
 * about ten times its share, so requests keep their pace while a book renders, and the render takes
 * whatever is idle (docs/performance.md).
 */
export const RENDER_NICE = 10;
/** An idle render process exits after this, giving its memory back. */
const IDLE_EXIT_MS = 30_000;

/** The child's module: the bundle's own entry under `npm start`, the TypeScript source under tsx. */
function childModule(): { file: string; execArgv: string[] } {
  const bundled = import.meta.url.endsWith('.js');
  const file = fileURLToPath(
    new URL(bundled ? './render-process-child.js' : './render-process-child.ts', import.meta.url),
  );
  return { file, execArgv: bundled ? [] : ['--import', 'tsx'] };
}

/**
 * Print pages are rendered in a process of their own at a lower priority, one per API (or worker)
 * process, started on first use: sharp's decoding and encoding at print resolution would
 * otherwise compete with requests on equal terms. Jobs are sent as file paths and the page is
 * written by the child, so no image crosses the channel. If the process dies, the pages it had
 * under way fail (their activity retries) and the next page starts a new one.
 */
export class PrintRenderProcess {
  private child?: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { child: ChildProcess; resolve: (placements: PhotoPlacement[]) => void; reject: (error: Error) => void }
  >();
  private idleTimer?: NodeJS.Timeout;

  render(job: RenderJob): Promise<PhotoPlacement[]> {
    const child = this.running();
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    // Pages under way keep this process alive; an idle render process does not.
    child.channel?.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { child, resolve, reject });
      child.send({ id, job }, (error) => {
        if (!error || !this.pending.delete(id)) return;
        reject(error);
      });
    });
  }

  /** Ends the render process (its pending pages fail); the next page starts a new one. */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill();
  }

  private running(): ChildProcess {
    if (this.child) return this.child;
    const { file, execArgv } = childModule();
    const child = fork(file, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    try {
      os.setPriority(child.pid!, RENDER_NICE);
    } catch {
      // Not permitted here (a restricted container): renders run at the API's priority.
    }
    // Only pages under way keep the parent alive (render() refs the channel, an empty queue unrefs it).
    child.unref();
    child.on('message', (reply: RenderReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.placements);
      if (this.pending.size === 0) {
        child.channel?.unref();
        if (this.child === child) this.idleTimer = setTimeout(() => this.stop(), IDLE_EXIT_MS).unref();
      }
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const error = new Error(`the print render process exited (${signal ?? `code ${code}`})`);
      for (const [id, waiting] of this.pending) {
        if (waiting.child !== child) continue;
        this.pending.delete(id);
        waiting.reject(error);
      }
    });
    return child;
  }
}
