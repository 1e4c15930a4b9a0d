import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './private-postgres';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { waitFor } from './wait';

/** One process of the cluster, by the name the harness gave it (api-1, worker-2, ...). */
export interface ClusterMember extends ServiceProcess {
  name: string;
  role: 'api' | 'worker';
  /** Its DBOS executor id (workers only; API processes run no flows). */
  executorId?: string;
}

export interface Cluster {
  /** The balancer's URL: what clients call. */
  url: string;
  dataDir: string;
  databaseUrl: string;
  apis: ClusterMember[];
  workers: ClusterMember[];
  /** Runs the operator CLI (`npm run cli -- ...`) on the cluster's database and secrets; its stdout. */
  cli(...args: string[]): Promise<string>;
  /** Starts one more worker (a replacement after a kill); it joins `workers`. */
  startWorker(): Promise<ClusterMember>;
  /** Every process's log lines at warn and above, for a failing test's report. */
  problems(): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  databaseUrl: string;
  apis?: number;
  workers?: number;
  /**
   * Extra environment for every process: FILE_STORE and its settings once files live in object
   * storage, shorter durations for tests. Without FILE_STORE the processes share one DATA_DIR.
   */
  env?: Record<string, string | undefined>;
  /** Where the balancer listens; default a free loopback port. */
  port?: number;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Debian's HAProxy, or undefined when it is not installed (`apt-get install haproxy`). */
export function haproxyPath(): string | undefined {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      /* not there */
    }
  }
  return undefined;
}

/**
 * N API processes (ROLE=api) and M workers (ROLE=worker), each a real `src/main.ts` process on
 * loopback, on one database, behind HAProxy on one port. The first API process starts alone (it
 * migrates and seeds), then the rest together. All share a credential pepper, a file-URL secret and
 * PUBLIC_URL (the balancer), as replicas behind one address must.
 */
export async function startCluster({
  databaseUrl,
  apis = 2,
  workers = 2,
  env = {},
  port,
}: ClusterOptions): Promise<Cluster> {
  const haproxy = haproxyPath();
  if (!haproxy) throw new Error('HAProxy is not installed: apt-get install -y haproxy (scripts/install-test-tools.sh)');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-cluster-'));
  const balancerPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${balancerPort}`;
  const shared = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    PUBLIC_URL: url,
    TRUST_PROXY: 'loopback',
    CREDENTIAL_PEPPER: randomBytes(32).toString('base64url'),
    TEMPORAL_ADDRESS: undefined,
    ...env,
    // The harness learns each process's URL from its "listening" line.
    LOG_LEVEL: 'info',
  };
  const members: ClusterMember[] = [];
  let workerCount = 0;
  const start = async (role: 'api' | 'worker', index: number): Promise<ClusterMember> => {
    const name = `${role}-${index}`;
    // One host and one DATA_DIR: each process needs its id given (a real host derives one).
    const executorId = role === 'worker' ? `cluster-${name}` : undefined;
    const started = await startServiceProcess({ ...shared, ROLE: role, EXECUTOR_ID: executorId });
    const member = Object.assign(started, { name, role, executorId });
    members.push(member);
    return member;
  };
  let balancer: ChildProcess | undefined;
  const stop = async () => {
    if (balancer && balancer.exitCode === null) {
      const gone = new Promise((resolve) => balancer!.once('exit', resolve));
      balancer.kill('SIGKILL');
      await gone;
    }
    await Promise.all(members.map((member) => member.stop()));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const apiMembers = [await start('api', 1)];
    apiMembers.push(...(await Promise.all(Array.from({ length: apis - 1 }, (_, i) => start('api', i + 2)))));
    const workerMembers = await Promise.all(Array.from({ length: workers }, () => start('worker', ++workerCount)));
    const config = path.join(dataDir, 'haproxy.cfg');
    await writeFile(
      config,
      haproxyConfig(
        balancerPort,
        apiMembers.map((member) => new URL(member.url).port),
      ),
    );
    balancer = spawn(haproxy, ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let balancerErrors = '';
    balancer.stderr!.on('data', (chunk: Buffer) => (balancerErrors += chunk.toString()));
    await waitFor(
      async () => {
        if (balancer!.exitCode !== null) throw new Error(`HAProxy exited: ${balancerErrors}`);
        return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
      },
      15_000,
      'the balancer to answer',
    );
    return {
      url,
      dataDir,
      databaseUrl,
      apis: apiMembers,
      workers: workerMembers,
      async cli(...args) {
        const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/cli.ts', ...args], {
          cwd: ROOT,
          env: { ...process.env, ...definedOnly(shared), LOG_LEVEL: 'warn' },
        });
        return stdout;
      },
      async startWorker() {
        const member = await start('worker', ++workerCount);
        workerMembers.push(member);
        return member;
      },
      problems: () =>
        members
          .map((member) => {
            const lines = member.logs.filter((line) => line.level >= 40).slice(0, 5);
            return lines.length > 0 || member.stderr()
              ? `${member.name}: ${JSON.stringify(lines)} ${member.stderr().slice(-1500)}`
              : '';
          })
          .filter(Boolean)
          .join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Round robin over the API processes, each checked on /readyz twice a second: a dead one is out
 * within a second, and a request whose connection it refused goes to another (redispatch). A
 * request it accepted and then dropped is answered 502, never retried: it may have had an effect.
 * WebSockets (graphql-ws) pass through as tunnels.
 */
function haproxyConfig(port: number, apiPorts: string[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  option redispatch',
    '  retries 3',
    '  option forwardfor',
    'frontend photobook',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apis',
    'backend apis',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...apiPorts.map((apiPort, i) => `  server api-${i + 1} 127.0.0.1:${apiPort} check`),
    '',
  ].join('\n');
}
