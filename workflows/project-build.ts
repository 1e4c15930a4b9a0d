import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { ProjectActivities } from '../src/activities/project-activities';
import type { CampaignActivities } from '../src/activities/campaign-activities';
import { PROJECT_BUILD_FLOW } from '../src/domain/flows';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';

type Activities = Pick<ProjectActivities, 'startBuilding' | 'downloadPhoto' | 'failPhoto' | 'analyzePhoto' | 'buildBook'> &
  Pick<CampaignActivities, 'notifyProjectReady' | 'reportProjectNotReady'>;

const database = DATABASE_ACTIVITY_POLICY;
/**
 * Two attempts per photo, each bounded by PHOTO_DOWNLOAD_TIMEOUT and by the build's download
 * deadline (the activity enforces both): a photo host that accepts connections and never answers
 * costs a build at most two timeouts and a second, never more than its deadline. The step's own
 * timeout is only a backstop.
 */
const download: ActivityOptions = {
  startToCloseTimeoutMs: 5 * 60_000,
  retry: { maximumAttempts: 2, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 2_000 },
};
const imaging: ActivityOptions = {
  startToCloseTimeoutMs: 120_000,
  retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000 },
};

/** Photos fetched at once: hides network latency without hammering one photo host. */
const BATCH = 4;

export interface ProjectBuildInput {
  projectId: string;
}

/**
 * From `generate` to an editable book: fetch every photo through the guarded client, analyse it,
 * lay out the book and render the cover preview. A photo that cannot be fetched or decoded, or is
 * not fetched by the build's download deadline, is marked failed with its reason and the book is
 * built from the others. Once editable, the shop is
 * told (a campaign row's webhook, or the project's callback URL).
 */
export const projectBuildFlow: FlowDefinition<ProjectBuildInput, { status: string; pages: number }, Activities> = {
  name: PROJECT_BUILD_FLOW,
  activityOptions: {
    startBuilding: database,
    downloadPhoto: download,
    failPhoto: database,
    analyzePhoto: imaging,
    buildBook: imaging,
    notifyProjectReady: database,
    reportProjectNotReady: database,
  },
  async run({ activities }, { projectId }) {
    let built: { status: string; pages: number };
    try {
      built = await build(activities, projectId);
    } catch (error) {
      // Retries are spent: the project stays as it is, but whoever waits for it must hear so.
      await activities.reportProjectNotReady(projectId, `the project build gave up: ${(error as Error).message}`);
      throw error;
    }
    if (built.status === 'editable') await activities.notifyProjectReady(projectId);
    else await activities.reportProjectNotReady(projectId, `project ${projectId} is ${built.status}; it never became editable and is not notified`);
    return built;
  },
};

async function build(activities: Activities, projectId: string): Promise<{ status: string; pages: number }> {
  // Runs recorded before builds had a deadline have none (undefined): their downloads pass none.
  const { photoIds, downloadDeadline } = await activities.startBuilding(projectId);
  for (let i = 0; i < photoIds.length; i += BATCH) {
    const batch = photoIds.slice(i, i + BATCH);
    // Downloads of a batch, then its failures in photo order, then its analyses: calls are always
    // made in an order that does not depend on which download finished first, which replay
    // under either engine relies on (DBOS hands recorded outcomes back by call order).
    const downloads = await Promise.allSettled(batch.map((photoId) => activities.downloadPhoto(photoId, downloadDeadline)));
    for (const [index, download] of downloads.entries()) {
      if (download.status === 'rejected') {
        await activities.failPhoto(batch[index], { code: 'DOWNLOAD_FAILED', message: (download.reason as Error).message });
      }
    }
    await Promise.all(batch.map((photoId) => activities.analyzePhoto(photoId)));
  }
  return activities.buildBook(projectId);
}
