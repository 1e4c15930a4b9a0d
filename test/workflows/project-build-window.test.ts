import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DbosEngine } from '../../src/engine/dbos-engine';
import type { BuildStart } from '../../src/services/projects/book-build';
import { DBOS_SCHEMA } from '../../src/engine/dbos-names';
import { projectBuildFlow } from '../../workflows/project-build';
import { createTestDatabase } from '../support/harness';

/**
 * The project build's analysis window on the embedded engine (DBOS on a real PostgreSQL), with
 * stand-ins for the build's activities so that one photo's analysis can be held: each analysis
 * that ends starts the next photo's, so a slow photo (a HEIC decoding) holds up no other, and the
 * calls are made in photo order whatever order they end in, which is what DBOS replays by (its
 * steps are numbered in call order). The activities' own work is tested through the service
 * (project-build.test.ts); this is the flow's order and concurrency, and its replay after a crash.
 */
const TENANT = { tenant: { clientId: 'window-test-client', env: 'prod' as const } };
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const PHOTOS = 20;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let engine: DbosEngine | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});
afterAll(async () => {
  await database?.drop();
});

/** Stand-in activities: analyses of `held` wait until released; every call is recorded. */
function standIns(start: Omit<BuildStart, 'photoIds' | 'downloadDeadline'>, held: string) {
  const analysed: string[] = [];
  const started: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const activities = {
    startBuilding: async (): Promise<BuildStart> => ({
      photoIds: Array.from({ length: PHOTOS }, (_, i) => `ph-${i}`),
      downloadDeadline: Date.now() + 60_000,
      ...start,
    }),
    downloadPhoto: async () => undefined,
    failPhoto: async () => undefined,
    analyzePhoto: async (photoId: string) => {
      started.push(photoId);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        if (photoId === held) await gate;
        else await new Promise((resolve) => setTimeout(resolve, 5));
        analysed.push(photoId);
        return photoId;
      } finally {
        inFlight--;
      }
    },
    buildBook: async () => ({ status: 'editable', pages: 24 }),
    notifyProjectReady: async () => undefined,
    reportProjectNotReady: async () => undefined,
    failBuild: async () => undefined,
    resourceRetryWindow: async () => 60_000,
  };
  return { activities, analysed, started, release, mostInFlight: () => mostInFlight };
}

async function launch(activities: ReturnType<typeof standIns>['activities']) {
  await engine?.stop();
  engine = await DbosEngine.launch({
    databaseUrl: database.url,
    flows: [projectBuildFlow],
    activities,
    log,
    retentionMs: 86_400_000,
  });
  return engine;
}

async function until(probe: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const photo = (i: number) => `ph-${i}`;
const inOrder = Array.from({ length: PHOTOS }, (_, i) => photo(i));
const sorted = (ids: string[]) => [...ids].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));

/** The run's workflow id, as the flow's contract names it. */
const workflowOf = (projectId: string) => projectBuildFlow.contract.workflowId({ projectId }, TENANT.tenant);

/**
 * The photos of the run's recorded analyses in DBOS's step order (the order replay hands outcomes
 * back by): each analysis returned its photo's id.
 */
async function journalledAnalyses(projectId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ output: string | null }>(
      `select output from ${DBOS_SCHEMA}.operation_outputs where workflow_uuid = $1 and function_name = 'analyzePhoto' order by function_id`,
      [workflowOf(projectId)],
    );
    return rows.map((row) => /ph-\d+/.exec(String(row.output))?.[0] ?? String(row.output));
  } finally {
    await client.end();
  }
}

describe('project build: the analysis window', () => {
  it('analyses every other photo while one is held, at most 8 at once, calling them in photo order', async () => {
    const run = standIns({ downloadsFirst: true, analysisWindow: 8 }, photo(0));
    const running = await launch(run.activities);
    const projectId = `p-window-${Date.now().toString(36)}`;
    await running.start(projectBuildFlow.contract, { projectId }, TENANT);

    await until(() => run.analysed.length === PHOTOS - 1, 'the 19 other photos analysed while the first is held');
    expect(sorted(run.started)).toEqual(inOrder);
    expect(run.mostInFlight()).toBe(8);
    run.release();
    const outcome = await running.waitForCompletion(workflowOf(projectId), 10_000);
    expect(outcome).toMatchObject({ status: 'completed', result: { status: 'editable', pages: 24 } });
    // Photo 0 ended last, yet its step is the first: the steps are numbered in photo order.
    expect(run.analysed.at(-1)).toBe(photo(0));
    expect(await journalledAnalyses(projectId)).toEqual(inOrder);
  });

  it('replays a run crashed mid-window from its journal: analyses already recorded are not run again', async () => {
    const first = standIns({ downloadsFirst: true, analysisWindow: 8 }, photo(0));
    const projectId = `p-window-crash-${Date.now().toString(36)}`;
    await (await launch(first.activities)).start(projectBuildFlow.contract, { projectId }, TENANT);
    await until(() => first.analysed.length === PHOTOS - 1, 'the others analysed');
    // Let the last outcomes be recorded, then the process goes away with photo 0 still in flight.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await engine?.stop();
    engine = undefined;
    first.release();

    const second = standIns({ downloadsFirst: true, analysisWindow: 8 }, 'none');
    const outcome = await (await launch(second.activities)).waitForCompletion(workflowOf(projectId), 15_000);
    expect(outcome).toMatchObject({ status: 'completed', result: { status: 'editable' } });
    // Only the analysis in flight at the crash runs again; the 19 recorded ones come from the journal.
    expect(second.started).toEqual([photo(0)]);
  });

  it('keeps the batches of a run recorded before the window: batch two waits for the whole of batch one', async () => {
    const run = standIns({ downloadsFirst: true, analysisBatch: 8 }, photo(0));
    const running = await launch(run.activities);
    const projectId = `p-batches-${Date.now().toString(36)}`;
    await running.start(projectBuildFlow.contract, { projectId }, TENANT);

    await until(() => run.analysed.length === 7, 'the rest of the first batch');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sorted(run.started)).toEqual(inOrder.slice(0, 8));
    run.release();
    const outcome = await running.waitForCompletion(workflowOf(projectId), 10_000);
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(sorted(run.started)).toEqual(inOrder);
    expect(await journalledAnalyses(projectId)).toEqual(inOrder);
  });
});
