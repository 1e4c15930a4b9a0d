import type { Config } from '../config';

/** What the flows ask of the operator's settings when they meet a resource fault (workflows/resource-retry.ts). */
export function createResourceActivities({ config }: { config: Pick<Config, 'durations'> }) {
  return {
    /** RESOURCE_RETRY_WINDOW: recorded once per run that meets a fault, so its replay decides the same. */
    resourceRetryWindow: async (): Promise<number> => config.durations.resourceRetryWindowMs,
  };
}

export type ResourceActivities = ReturnType<typeof createResourceActivities>;
