import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { CampaignActivities } from '../src/activities/campaign-activities';
import { CAMPAIGN_FLOW } from '../src/domain/flows';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';

type Activities = CampaignActivities;

const database = DATABASE_ACTIVITY_POLICY;
/** Downloading and storing the whole file; a passing network failure is tried again. */
const download: ActivityOptions = {
  startToCloseTimeoutMs: 15 * 60_000,
  retry: { maximumAttempts: 4, initialIntervalMs: 5_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 },
};
/** A page generates its rows and waits (at most 2 minutes) for their builds. */
const page: ActivityOptions = {
  startToCloseTimeoutMs: 5 * 60_000,
  retry: { maximumAttempts: 10, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 },
};

/**
 * A CSV becomes one project per good row: download and store the rows (a bad file fails the
 * campaign), then generate page by page, each page's builds finished before the next starts.
 * Flow state is one line number, whatever the file's length. Notifications follow each project's
 * build (workflows/project-build.ts), and the last one completes the campaign.
 */
export const campaignFlow: FlowDefinition<typeof CAMPAIGN_FLOW, Activities> = {
  contract: CAMPAIGN_FLOW,
  activityOptions: {
    importCampaignCsv: download,
    failCampaign: database,
    generateCampaignPage: page,
    finishCampaignGeneration: database,
  },
  async run({ activities }, { campaignId }) {
    let imported: { status: string };
    try {
      imported = await activities.importCampaignCsv(campaignId);
    } catch (error) {
      await activities.failCampaign(campaignId, (error as Error).message);
      return { status: 'failed' };
    }
    if (imported.status === 'failed') return { status: 'failed' };
    for (let afterLine = 0; ; ) {
      const done = await activities.generateCampaignPage(campaignId, afterLine);
      if (done.rows === 0) break;
      afterLine = done.lastLine;
    }
    await activities.finishCampaignGeneration(campaignId);
    return { status: 'generated' };
  },
};
