import { defineFlow } from './flow-contract';

export interface ProjectExpungeInput {
  projectId: string;
  retentionMs: number;
}

/** A deleted project's data, removed once the retention period has passed. */
export const PROJECT_EXPUNGE_FLOW = defineFlow<ProjectExpungeInput, { expunged: boolean }>({
  name: 'projectExpunge',
  workflowId: ({ projectId }) => `project-expunge:${projectId}`,
});
