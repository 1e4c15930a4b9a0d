/**
 * Where the time goes: starts the service as users do (`npm start`) under `node --cpu-prof`, drives
 * one endpoint with 50 connections (the load generator in its own process), stops it and prints the
 * top self-time frames of the service's profile.
 *
 * Run: `npx tsx test/bench/profile.ts status|list|graphql|generate [seconds]` (DATABASE_URL's server; uses the
 * database photobook_bench_profile). BENCH_PROFILE_DIR keeps the .cpuprofile files there.
 */
import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchDatabase, createClient, load, newDataDir, projectId, seedProjects, startProject } from './bench-env';
import { generateBodies } from './bench-rows';

const [endpoint = 'status', secondsArg = '15'] = process.argv.slice(2);
const PROJECTS = 100_000;
const USERS = 1_000;

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
export function topFrames(profile: Profile, fromUs: number, toUs: number, count = 12): { frames: string[]; places: string[] } {
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
    const file = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(/.*\/(src|test|workflows)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + time);
    let place = placeOf(url);
    for (let up = parent.get(id); !place && up !== undefined; up = parent.get(up)) place = placeOf(nodes.get(up)!.callFrame.url);
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

async function main() {
  const url = await benchDatabase('photobook_bench_profile');
  const dataDir = await newDataDir();
  const profileDir = process.env.BENCH_PROFILE_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'photobook-prof-')));
  // First start migrates and seeds the catalogue; the profiled start comes after the data is in.
  let service = await startProject({ databaseUrl: url, dataDir });
  const client = await createClient(url, dataDir, 'Profile shop');
  await seedProjects(url, client.clientId, PROJECTS, USERS);
  await service.stop();
  service = await startProject({ databaseUrl: url, dataDir, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
  const headers = { 'x-service': client.header };
  const seconds = Number(secondsArg);
  const spec =
    endpoint === 'list'
      ? { paths: Array.from({ length: USERS }, (_, i) => `/v2/project/list?user=bench-user-${i + 1}`) }
      : endpoint === 'generate'
        ? { method: 'POST' as const, paths: ['/v2/generate'], bodies: generateBodies(500) }
        : endpoint === 'graphql'
          ? {
              method: 'POST' as const,
              paths: ['/graphql'],
              bodies: Array.from({ length: 1000 }, () =>
                JSON.stringify({ query: 'query ($id: String!) { project(id: $id) { id status { project photos } } }', variables: { id: projectId(1 + Math.floor(Math.random() * PROJECTS)) } }),
              ),
            }
          : { paths: Array.from({ length: 5000 }, () => `/v2/project/status?id=${projectId(1 + Math.floor(Math.random() * PROJECTS))}`) };
  const loadStarted = Date.now();
  const result = await load({ url: service.url, connections: endpoint === 'generate' ? 8 : 50, seconds, headers, ...spec });
  const loadMs = Date.now() - loadStarted;
  console.log(endpoint, JSON.stringify(result));
  const stopping = Date.now();
  await service.stop();
  const stopMs = Date.now() - stopping;
  const files = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
  // The biggest profile is the service's (npm and the build before it barely run).
  let best: { file: string; size: number } | undefined;
  for (const file of files) {
    const text = await readFile(path.join(profileDir, file), 'utf8');
    if (!best || text.length > best.size) best = { file, size: text.length };
  }
  if (!best) throw new Error('no profile written');
  const profile = JSON.parse(await readFile(path.join(profileDir, best.file), 'utf8'));
  // The window under load: from (stop + load) before the end to (stop) before it, trimmed by 0.5 s each side.
  const { frames, places } = topFrames(profile, (stopMs + loadMs - 500) * 1000, (stopMs + 500) * 1000, 15);
  console.log(`top self time under load, ${endpoint} (${best.file}), by function:`);
  for (const line of frames) console.log(line);
  console.log('by package / folder (native frames counted for their caller):');
  for (const line of places) console.log(line);
  if (!process.env.BENCH_PROFILE_DIR) await rm(profileDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
