import { defineFlow } from './flow-contract';

export interface ProjectBuildInput {
  projectId: string;
  /** Set when an order that replaces the photos rebuilds the book: one run per order line. */
  orderLineId?: string;
  /** Set by an operator's rebuild of a failed project (`project rebuild`): its start in ms, a new run each time. */
  rebuildAt?: number;
}

/** From `generate` (or an order's new photos, or an operator's rebuild) to an editable book. */
export const PROJECT_BUILD_FLOW = defineFlow<ProjectBuildInput, { status: string; pages: number }>({
  name: 'projectBuild',
  queue: 'builds',
  workflowId: ({ projectId, orderLineId, rebuildAt }) => {
    if (rebuildAt !== undefined) return `project-build:${projectId}:rebuild-${rebuildAt}`;
    return orderLineId === undefined ? `project-build:${projectId}` : `project-build:${projectId}:${orderLineId}`;
  },
});

/** The project a build run is for (first build, an order's rebuild or an operator's), or undefined when `workflowId` is another flow's. */
export const projectOfBuild = (workflowId: string): string | undefined =>
  workflowId.startsWith('project-build:') ? workflowId.slice('project-build:'.length).split(':')[0] : undefined;
