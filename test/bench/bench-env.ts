/**
 * What every benchmark row needs: its own database on DATABASE_URL's server (so the test databases
 * are never touched), the service started exactly as the README starts it (`npm start` with
 * environment variables), a client issued by the CLI, projects seeded with SQL, and the load
 * generator in its own process (test/bench/load.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { waivePhotoMinimum } from '../support/photo-minimum';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * One pepper for the service and the floors, so both check the same stored digests (and derive the
 * same editor-link and /files URL keys). A restored snapshot brings the pepper it was made with.
 */
export let PEPPER = process.env.CREDENTIAL_PEPPER ?? randomBytes(32).toString('hex');
export function usePepper(pepper: string): void {
  PEPPER = pepper;
}

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database `name` (dropped first when `fresh`); returns its URL. BENCH_DATABASE_SUFFIX is
 * appended to the name, so that two checkouts benching on one server do not drop each other's data.
 */
export async function benchDatabase(base: string, fresh = true): Promise<string> {
  const name = `${base}${process.env.BENCH_DATABASE_SUFFIX ?? ''}`;
  if (!/^\w+$/.test(name)) throw new Error(`BENCH_DATABASE_SUFFIX makes "${name}", not a plain database name`);
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function waitForHttp(
  url: string,
  child: ChildProcess,
  what: string,
  timeoutMs = 120_000,
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { headers });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms`);
}

/** Stops a process group started detached, and waits for it. */
async function stopGroup(child: ChildProcess): Promise<void> {
  // Exited by a signal, a process has no exit code but a signal code; either way no 'exit' is to come.
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is already gone
    }
  };
  signal('SIGINT');
  const timer = setTimeout(() => child.exitCode === null && signal('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}

export interface ProjectOptions {
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
  /** Node flags (e.g. --cpu-prof, which NODE_OPTIONS refuses): `npm start`'s command with them added. */
  nodeFlags?: string[];
  /** Another checkout to start the service from (a baseline measured beside this one); this checkout by default. */
  root?: string;
}

/** `npm start`, as the README runs it, with DATABASE_URL, DATA_DIR and PORT set; stdout to /dev/null as a log collector would take it. */
export async function startProject({
  databaseUrl,
  dataDir,
  env = {},
  nodeFlags,
  root = ROOT,
}: ProjectOptions): Promise<Running> {
  const port = await freePort();
  const [command, ...args] = nodeFlags ? startCommandWith(nodeFlags) : ['npm', 'start'];
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    // One bench client sends every request and holds every socket: the per-credential rate limit and
    // socket caps must not be what is measured.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      CREDENTIAL_PEPPER: PEPPER,
      RATE_LIMIT_MAX: '1000000000',
      WS_MAX_CONNECTIONS_PER_CLIENT: '1000000',
      WS_MAX_SUBSCRIPTIONS_PER_CLIENT: '1000000',
      // Thousands of sockets from one loopback address: the per-address door limits are not what is measured.
      WS_CONNECTS_PER_ADDRESS: '1000000000',
      // Several processes on one host: each metrics listener on a free port unless the bench names one.
      METRICS_PORT: '0',
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child, 'npm start');
  return { url, child, stop: () => stopGroup(child) };
}

/** `npm start`'s build, then its script with `flags` given to node (the profile needs them on the command line). */
function startCommandWith(flags: string[]): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const start = scripts.start!.replace(/\bnode \.build\/main\.js\b/, `node ${flags.join(' ')} .build/main.js`);
  if (start === scripts.start) throw new Error('npm start no longer runs node .build/main.js: update startCommandWith');
  return ['sh', '-c', `${scripts.prestart} && ${start}`];
}

/**
 * The service's own Node process in `npm start`'s process group, whose parents are npm and sh (under
 * tsx, the loader's parent process too: the largest is the one that serves).
 */
export function serviceProcessId(service: Running): number {
  const group = execFileSync('ps', ['-o', 'pid=', '-g', String(service.child.pid)], { encoding: 'utf8' })
    .split('\n')
    .map(Number)
    .filter(Boolean);
  const servers = group.filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return (
        // Node 24 names its main thread, and so the process's comm, `MainThread`; earlier Nodes leave `node`.
        ['node', 'MainThread'].includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()) &&
        args.some((arg) => /(^|\/)main\.[jt]s$/.test(arg))
      );
    } catch {
      return false; // exited meanwhile
    }
  });
  if (servers.length === 0) throw new Error(`no service process in npm start's group ${service.child.pid}`);
  return servers.reduce((largest, pid) => (residentKiB(pid).rss > residentKiB(largest).rss ? pid : largest));
}

/** Resident set now and at its peak (VmRSS, VmHWM) of a process, in KiB. */
export function residentKiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** How a floor says it listens: a GET that answers 2xx (Apollo's standalone server has no /healthz). */
export interface Readiness {
  path: string;
  headers?: Record<string, string>;
}

/** A floor script of test/bench/ (bare node:http + pg, or Apollo's standalone server), in its own process. */
export async function startFloor(
  script: string,
  databaseUrl: string,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
  ready: Readiness = { path: '/healthz' },
): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, path.join(ROOT, 'test/bench', script)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), CREDENTIAL_PEPPER: PEPPER, ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}${ready.path}`, child, script, undefined, ready.headers);
  return { url, child, stop: () => stopGroup(child) };
}

export async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'photobook-bench-'));
  await chmod(dir, 0o755);
  return dir;
}

export interface IssuedClient {
  clientId: string;
  accessKey: string;
  accessSecret: string;
  header: string;
}

/** `npm run cli -- client create --json`, as an operator issues credentials. */
export async function createClient(databaseUrl: string, dataDir: string, name: string): Promise<IssuedClient> {
  const child = spawn('npm', ['run', '--silent', 'cli', '--', 'client', 'create', '--name', name, '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      CREDENTIAL_PEPPER: PEPPER,
      LOG_LEVEL: 'silent',
    },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`client create exited with ${code}`);
  const issued = JSON.parse(out.slice(out.indexOf('{'))) as {
    clientId: string;
    credentials: { dev: { accessKey: string; accessSecret: string } };
  };
  // The benchmarks order books of few or no photos: they measure the service, not the book (support/photo-minimum.ts).
  await waivePhotoMinimum(databaseUrl, issued.clientId);
  const { accessKey, accessSecret } = issued.credentials.dev;
  return { clientId: issued.clientId, accessKey, accessSecret, header: JSON.stringify({ accessKey, accessSecret }) };
}

/**
 * `projects` editable projects of the client's dev partition, spread over `users` users
 * (`bench-user-1` …), the newest first by one second each; ids `p-bench` + 17 digits.
 */
export async function seedProjects(
  databaseUrl: string,
  clientId: string,
  projects: number,
  users: number,
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO end_users (id, client_id, env, external_id, created_at)
       SELECT gen_random_uuid(), $1, 'dev', 'bench-user-' || u, now() FROM generate_series(1, $2::int) AS u`,
      [clientId, users],
    );
    await db.query(
      `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type,
                             e_commerce_plugin, metadata, custom, status, photos_status, title, ordered, created_at, updated_at, expires_at)
       SELECT 'p-bench' || lpad(n::text, 17, '0'), $1, 'dev', u.id, pr.id, m.id, pr.sku, 'local', 'en', 'fastbook',
              false, '{}', '{}', 'editable', 'idle', 'Book ' || n, false,
              date_trunc('milliseconds', now()) - n * interval '1 second', now(), now() + interval '30 days'
       FROM generate_series(1, $2::int) AS n
       JOIN end_users u ON u.client_id = $1 AND u.env = 'dev' AND u.external_id = 'bench-user-' || (1 + (n - 1) % $3::int)
       CROSS JOIN LATERAL (SELECT id, sku FROM products WHERE client_id = $1 ORDER BY product_id LIMIT 1) pr
       CROSS JOIN LATERAL (SELECT id FROM markets WHERE client_id = $1 AND market_id = 0) m`,
      [clientId, projects, users],
    );
    await db.query('VACUUM ANALYZE projects');
    await db.query('VACUUM ANALYZE end_users');
  } finally {
    await db.end();
  }
}

export const projectId = (n: number) => `p-bench${String(n).padStart(17, '0')}`;

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Requests cycle through these paths (and bodies, when given). */
  paths: string[];
  bodies?: string[];
}

/** autocannon in its own process (test/bench/load.ts), so the load generator does not share our event loop. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, [path.join(ROOT, 'test/bench/load.mjs')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin!.end(JSON.stringify(spec));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out) as LoadResult;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
