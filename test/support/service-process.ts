import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';

/** The service as its own process from its sources (`tsx src/main.ts`, what `npm start` bundles), with env. */
export interface ServiceProcess {
  url: string;
  /** The metrics listener's `http://127.0.0.1:<port>/metrics`, when it has one (METRICS_PORT=0 by default here). */
  metricsUrl?: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: Record<string, any>[];
  /** What it wrote to stderr so far (a crash's stack). */
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to its whole process group: a crash, nothing cleaned up. */
  kill(): Promise<void>;
  /** SIGTERM and wait: a clean shutdown. */
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export function startServiceProcess(
  env: Record<string, string | undefined>,
  timeoutMs = 90_000,
): Promise<ServiceProcess> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    ...env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs: Record<string, any>[] = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const signalGroup = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void signalGroup('SIGKILL');
      reject(new Error(`the service did not listen within ${timeoutMs} ms; stderr: ${stderr.join('').slice(-2000)}`));
    }, timeoutMs);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code} before listening; stderr: ${stderr.join('').slice(-2000)}`));
    });
    let metricsUrl: string | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line);
      // Per-request lines would pile up under load; everything else is kept.
      if (!(entry.level <= 30 && (entry.req || entry.res))) logs.push(entry);
      if (entry.msg === 'metrics listening') metricsUrl = entry.metricsUrl;
      if (entry.msg === 'photobook service listening') {
        clearTimeout(timer);
        resolve({
          url: entry.url,
          ...(metricsUrl ? { metricsUrl } : {}),
          child,
          logs,
          stderr: () => stderr.join(''),
          exited,
          kill: () => signalGroup('SIGKILL'),
          stop: () => signalGroup('SIGTERM'),
        });
      }
    });
  });
}
