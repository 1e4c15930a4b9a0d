import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { ProjectBuildActivities } from '../src/activities/project-build-activities';
import { PROJECT_BUILD_FLOW } from '../src/domain/flows';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';
import { RESOURCE_UNAVAILABLE_ERROR, isResourceUnavailable } from '../src/domain/resource-errors';
import type { ResourceActivities } from '../src/activities/resource-activities';
import type { FlowContext } from './flow-context';
import { failureReasonOf, rideOutResourceFaults } from './resource-retry';

type Activities = ProjectBuildActivities & ResourceActivities;

const database = DATABASE_ACTIVITY_POLICY;
/**
 * Two attempts per photo, each bounded by PHOTO_DOWNLOAD_TIMEOUT and by the build's download
 * deadline (the activity enforces both): a photo host that accepts connections and never answers
 * costs a build at most two timeouts and a second, never more than its deadline. The step's own
 * timeout is only a backstop.
 */
const download: ActivityOptions = {
  startToCloseTimeoutMs: 5 * 60_000,
  retry: {
    maximumAttempts: 2,
    initialIntervalMs: 1_000,
    backoffCoefficient: 2,
    maximumIntervalMs: 2_000,
    nonRetryableErrorTypes: [RESOURCE_UNAVAILABLE_ERROR],
  },
};
const imaging: ActivityOptions = {
  startToCloseTimeoutMs: 120_000,
  retry: {
    maximumAttempts: 3,
    initialIntervalMs: 1_000,
    backoffCoefficient: 2,
    maximumIntervalMs: 10_000,
    nonRetryableErrorTypes: [RESOURCE_UNAVAILABLE_ERROR],
  },
};

/** Photos fetched at once: hides network latency without hammering one photo host. */
const BATCH = 4;

/**
 * From `generate` to an editable book: fetch every photo through the guarded client, analyse it,
 * lay out the book and render the cover preview. A photo that cannot be fetched or decoded, or is
 * not fetched by the build's download deadline, is marked failed with its reason and the book is
 * built from the others. Once editable, the shop is
 * told (a campaign row's webhook, or the project's callback URL).
 */
export const projectBuildFlow: FlowDefinition<typeof PROJECT_BUILD_FLOW, Activities> = {
  contract: PROJECT_BUILD_FLOW,
  activityOptions: {
    startBuilding: database,
    downloadPhoto: download,
    failPhoto: database,
    analyzePhoto: imaging,
    buildBook: imaging,
    notifyProjectReady: database,
    reportProjectNotReady: database,
    failBuild: database,
    resourceRetryWindow: database,
  },
  async run(ctx, { projectId }) {
    const { activities } = ctx;
    let built: { status: string; pages: number };
    try {
      built = await build(ctx, projectId);
    } catch (error) {
      const reason = failureReasonOf(error);
      if (reason === undefined) throw error;
      // Retries (and RESOURCE_RETRY_WINDOW) are spent: the project is `failed` with the reason, for
      // the shop (status, event) and the operator (`project rebuild`); whoever waits for it hears so.
      await activities.failBuild(projectId, reason);
      await activities.reportProjectNotReady(projectId, `the project build gave up: ${reason}`);
      return { status: 'failed', pages: 0 };
    }
    if (built.status === 'editable') await activities.notifyProjectReady(projectId);
    else
      await activities.reportProjectNotReady(
        projectId,
        `project ${projectId} is ${built.status}; it never became editable and is not notified`,
      );
    return built;
  },
};

async function build(ctx: FlowContext<Activities>, projectId: string): Promise<{ status: string; pages: number }> {
  const { activities } = ctx;
  // A full or unavailable store is ridden out for RESOURCE_RETRY_WINDOW (resource-retry.ts), one
  // call after another after each batch, so the calls stay in an order replay can follow.
  const ride = <T>(call: () => Promise<T>) => rideOutResourceFaults(ctx, activities.resourceRetryWindow, call);
  // Runs recorded before builds had a deadline have none (undefined): their downloads pass none.
  const { photoIds, downloadDeadline, downloadsFirst, analysisBatch, analysisWindow } =
    await activities.startBuilding(projectId);
  const batches = inBatches(photoIds, BATCH);

  // Downloads of a batch, then its failures in photo order: calls are always made in an order that
  // does not depend on which download finished first, which replay under either engine relies on
  // (DBOS hands recorded outcomes back by call order).
  const fetchBatch = async (batch: string[]) => {
    const downloads = await Promise.allSettled(
      batch.map((photoId) => activities.downloadPhoto(photoId, downloadDeadline)),
    );
    for (const [index, download] of downloads.entries()) {
      if (download.status !== 'rejected') continue;
      // The store could not take the photo: not the photo's fault. Fetched again (with no deadline:
      // the wait was the store's) once it can; a store that stays full fails the build, not the photo.
      if (isResourceUnavailable(download.reason)) await ride(() => activities.downloadPhoto(batch[index]));
      else
        await activities.failPhoto(batch[index], {
          code: 'DOWNLOAD_FAILED',
          message: (download.reason as Error).message,
        });
    }
  };
  // Analyses settled, then their failures in photo order: a full store is ridden out, anything else fails the build.
  const settleAnalyses = async (ids: string[], analyses: PromiseSettledResult<unknown>[]) => {
    for (const [index, analysis] of analyses.entries()) {
      if (analysis.status !== 'rejected') continue;
      if (!isResourceUnavailable(analysis.reason)) throw analysis.reason;
      await ride(() => activities.analyzePhoto(ids[index]));
    }
  };
  const analyseBatch = async (batch: string[]) =>
    settleAnalyses(batch, await Promise.allSettled(batch.map((photoId) => activities.analyzePhoto(photoId))));
  // `size` analyses in flight, each one that ends starting the next photo's: whichever lane takes it,
  // the calls are made in photo order, the order replay relies on.
  const analyseInWindow = async (ids: string[], size: number) => {
    const analyses: PromiseSettledResult<unknown>[] = [];
    let next = 0;
    const lane = async () => {
      while (next < ids.length) {
        const index = next++;
        analyses[index] = await activities.analyzePhoto(ids[index]).then(
          (value): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value }),
          (reason): PromiseSettledResult<unknown> => ({ status: 'rejected', reason }),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(size, ids.length) }, lane));
    await settleAnalyses(ids, analyses);
  };

  if (downloadsFirst) {
    // Every photo is fetched before any is analysed: the download deadline is the photo hosts'
    // budget, which analysing (a second or more a 12 MP photo on a busy machine) must not spend.
    for (const batch of batches) await fetchBatch(batch);
    if (analysisWindow) await analyseInWindow(photoIds, analysisWindow);
    // Runs recorded before `analysisWindow` analysed in batches (before `analysisBatch`, the download batches), as they recorded.
    else for (const batch of inBatches(photoIds, analysisBatch ?? BATCH)) await analyseBatch(batch);
  } else {
    // Runs started before `downloadsFirst`: each batch fetched then analysed, as they recorded.
    for (const batch of batches) {
      await fetchBatch(batch);
      await analyseBatch(batch);
    }
  }
  return ride(() => activities.buildBook(projectId));
}

function inBatches(ids: string[], size: number): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
  return batches;
}
