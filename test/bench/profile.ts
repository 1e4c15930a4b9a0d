/**
 * Where the time goes: starts the service as users do (`npm start`) under `node --cpu-prof`, drives
 * one endpoint with 50 connections (the load generator in its own process), stops it and prints the
 * top self-time frames of the service's profile, and the CPU each of our modules and each package
 * costs per request, inclusive (a sample counts for every module on its stack: a hook's time
 * includes what it calls). Then the same for the row's floor (floor-server.mjs, or apollo-floor.mjs
 * for graphql) under the same load, so the two profiles sit side by side.
 *
 * Run: `npx tsx test/bench/profile.ts status|list|graphql|generate [seconds]` (DATABASE_URL's server; uses the
 * database photobook_bench_profile). BENCH_PROFILE_DIR keeps the .cpuprofile files there.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropRealProjects, realProjects } from './real-projects';
import { load, startFloor, startProject, type LoadSpec, type Running } from './bench-env';
import { generateBodies } from './bench-rows';

const [endpoint = 'status', secondsArg = '15'] = process.argv.slice(2);
const USERS = 10;
const PER_USER = 101;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
}

function placeOf(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  const ours = /\/(src\/[^/]+|workflows)\//.exec(file);
  if (ours) return ours[1];
  return url.startsWith('node:') ? 'node internals' : '';
}

/**
 * Self time of the samples taken in [from, to] microseconds before the profile's end (the load,
 * not the start or the shutdown), by function and by package; a native frame (no file) counts for
 * the nearest caller that has one.
 */
export function topFrames(
  profile: Profile,
  fromUs: number,
  toUs: number,
  count = 12,
): { frames: string[]; places: string[] } {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byNode = new Map<number, number>();
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const before = profile.endTime - at;
    if (before <= fromUs && before >= toUs) byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const total = [...byNode.values()].reduce((a, b) => a + b, 0);
  const byFrame = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, time] of byNode) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const file = url
      .replace(/^file:\/\//, '')
      .replace(/.*node_modules\//, '')
      .replace(/.*\/(src|test|workflows)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + time);
    let place = placeOf(url);
    for (let up = parent.get(id); !place && up !== undefined; up = parent.get(up))
      place = placeOf(nodes.get(up)!.callFrame.url);
    if (!place) place = functionName.startsWith('(') ? functionName : 'native';
    byPlace.set(place, (byPlace.get(place) ?? 0) + time);
  }
  const top = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
  return { frames: top(byFrame), places: top(byPlace) };
}

/** The source file of each line of a bundle of `npm start` (esbuild heads each module's code with `// src/…`). */
const bundleModules = new Map<string, string[]>();
function moduleOfBundleLine(url: string, line: number): string | undefined {
  const file = url.replace(/^file:\/\//, '');
  let modules = bundleModules.get(file);
  if (!modules) {
    modules = [];
    let current = '';
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      const head = /^\/\/ ((?:src|workflows)\/\S+\.ts)$/.exec(text);
      if (head) current = head[1];
      modules.push(current);
    }
    bundleModules.set(file, modules);
  }
  return modules[line] || undefined;
}

/** Where a frame's code lives: our source file, a package, or node's internals. */
function ownerOf(url: string, line: number): string | undefined {
  if (/\/\.build\/[^/]+\.js$/.test(url)) return moduleOfBundleLine(url, line);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (/\/test\/bench\/[^/]+\.mjs$/.test(url)) return url.replace(/.*\/test\//, 'test/');
  return url.startsWith('node:') ? 'node internals' : undefined;
}

/**
 * CPU time per request of each module on the stack (inclusive: counted once per sample for every
 * module the stack passes through), over the samples in the window, in µs; plus the total.
 */
export function inclusivePerRequest(
  profile: Profile,
  fromUs: number,
  toUs: number,
  requests: number,
  count = 25,
): string[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const owners = new Map<number, Set<string>>();
  const ownersOf = (id: number): Set<string> => {
    let set = owners.get(id);
    if (set) return set;
    const node = nodes.get(id)!;
    const up = parent.get(id);
    set = new Set(up === undefined ? [] : ownersOf(up));
    const owner = ownerOf(node.callFrame.url, node.callFrame.lineNumber);
    if (owner) set.add(owner);
    owners.set(id, set);
    return set;
  };
  const byOwner = new Map<string, number>();
  let busy = 0;
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const before = profile.endTime - at;
    if (before > fromUs || before < toUs) return;
    const name = nodes.get(id)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') return;
    const time = profile.timeDeltas[i + 1] ?? 0;
    busy += time;
    for (const owner of ownersOf(id)) byOwner.set(owner, (byOwner.get(owner) ?? 0) + time);
    if (name === '(garbage collector)')
      byOwner.set('(garbage collector)', (byOwner.get('(garbage collector)') ?? 0) + time);
  });
  return [
    `${(busy / requests).toFixed(1).padStart(7)} µs  busy CPU per request (${requests} requests)`,
    ...[...byOwner.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([owner, time]) => `${(time / requests).toFixed(1).padStart(7)} µs  ${owner}`),
  ];
}

/** Runs `spec` against a server started under --cpu-prof, stops it, and prints its profile. */
async function profiled(what: string, start: (flags: string[]) => Promise<Running>, spec: Omit<LoadSpec, 'url'>) {
  const profileDir = process.env.BENCH_PROFILE_DIR
    ? path.join(process.env.BENCH_PROFILE_DIR, what.replace(/[^\w.-]+/g, '-'))
    : await mkdtemp(path.join(os.tmpdir(), 'photobook-prof-'));
  const server = await start(['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  // JIT and pools warm before the profiled window.
  await load({ ...spec, url: server.url, seconds: 2 });
  const loadStarted = Date.now();
  const result = await load({ ...spec, url: server.url });
  const loadMs = Date.now() - loadStarted;
  console.log(`\n${what}`, JSON.stringify(result));
  const stopping = Date.now();
  await server.stop();
  const stopMs = Date.now() - stopping;
  const files = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
  // The biggest profile is the server's (npm and the build before it barely run).
  let best: { file: string; size: number } | undefined;
  for (const file of files) {
    const text = await readFile(path.join(profileDir, file), 'utf8');
    if (!best || text.length > best.size) best = { file, size: text.length };
  }
  if (!best) throw new Error('no profile written');
  const profile = JSON.parse(await readFile(path.join(profileDir, best.file), 'utf8'));
  // The window under load: from (stop + load) before the end to (stop) before it, trimmed by 0.5 s each side.
  const [from, to] = [(stopMs + loadMs - 500) * 1000, (stopMs + 500) * 1000];
  const requests = Math.round((result.rps * (loadMs - 1000)) / 1000);
  const { frames, places } = topFrames(profile, from, to, 15);
  console.log(`top self time under load, ${what} (${best.file}), by function:`);
  for (const line of frames) console.log(line);
  console.log('by package / folder (native frames counted for their caller):');
  for (const line of places) console.log(line);
  console.log('inclusive CPU per request by module (our files, packages):');
  for (const line of inclusivePerRequest(profile, from, to, requests)) console.log(line);
  if (!process.env.BENCH_PROFILE_DIR) await rm(profileDir, { recursive: true, force: true });
}

async function main() {
  // The projects the bench rows read: made through the API, restored from their snapshot (real-projects.ts).
  const real = await realProjects('photobook_bench_profile', USERS, PER_USER);
  const { databaseUrl: url, dataDir, client } = real;
  const headers = { 'x-service': client.header };
  const seconds = Number(secondsArg);
  const anyProject = () => real.ids[Math.floor(Math.random() * real.ids.length)];
  const paths =
    endpoint === 'list'
      ? { paths: Array.from({ length: USERS }, (_, i) => `/v2/project/list?user=bench-user-${i + 1}`) }
      : endpoint === 'generate'
        ? { method: 'POST' as const, paths: ['/v2/generate'], bodies: generateBodies(500) }
        : endpoint === 'graphql'
          ? {
              method: 'POST' as const,
              paths: ['/graphql'],
              bodies: Array.from({ length: 1000 }, () =>
                JSON.stringify({
                  query: 'query ($id: String!) { project(id: $id) { id status { project photos } } }',
                  variables: { id: anyProject() },
                }),
              ),
            }
          : { paths: Array.from({ length: 5000 }, () => `/v2/project/status?id=${anyProject()}`) };
  const spec = { connections: endpoint === 'generate' ? 8 : 50, seconds, headers, ...paths };
  await profiled(`service, ${endpoint}`, (nodeFlags) => startProject({ databaseUrl: url, dataDir, nodeFlags }), spec);
  const floor = endpoint === 'graphql' ? 'apollo-floor.mjs' : 'floor-server.mjs';
  const ready =
    endpoint === 'graphql'
      ? { path: '/?query=%7B__typename%7D', headers: { 'apollo-require-preflight': 'true' } }
      : undefined;
  await profiled(`floor (${floor}), ${endpoint}`, (nodeFlags) => startFloor(floor, url, {}, nodeFlags, ready), spec);
  await dropRealProjects(real);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
