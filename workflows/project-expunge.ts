import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { ProjectExpungeActivities } from '../src/activities/project-expunge-activities';
import { PROJECT_EXPUNGE_FLOW } from '../src/domain/flows';

const database: ActivityOptions = {
  startToCloseTimeoutMs: 60_000,
  retry: { maximumAttempts: 20, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 },
};

/** A deleted project keeps its data for the retention period (2 days by default), then loses it. */
export const projectExpungeFlow: FlowDefinition<typeof PROJECT_EXPUNGE_FLOW, ProjectExpungeActivities> = {
  contract: PROJECT_EXPUNGE_FLOW,
  activityOptions: { expungeProject: database },
  async run({ activities, sleep }, { projectId, retentionMs }) {
    await sleep(retentionMs);
    return activities.expungeProject(projectId);
  },
};
