import { fileURLToPath } from 'node:url';
import { ApplicationFailure, TemporalFailure } from '@temporalio/client';
import { Worker, type ActivityInterceptorsFactory, type NativeConnection } from '@temporalio/worker';
import type { ActivityFunctions } from '../../workflows/flow-context';

/** The module the worker bundles into Temporal's sandbox: one workflow per flow. */
export const TEMPORAL_WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/temporal/index.ts', import.meta.url));

/**
 * Makes an activity error's `name` its Temporal failure type. Temporal would use the error's
 * constructor name, so an `Error` whose name was set (`error.name = 'NotAnImage'`) would reach
 * `nonRetryableErrorTypes` and the flow as `Error`; the embedded engine matches on `name`, and so
 * must Temporal for the same flow to behave the same.
 */
const activityErrorNames: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (error) {
        if (error instanceof TemporalFailure || !(error instanceof Error)) throw error;
        const failure = ApplicationFailure.create({
          message: error.message,
          type: error.name,
          nonRetryable: (error as { nonRetryable?: unknown }).nonRetryable === true,
        });
        failure.stack = error.stack;
        throw failure;
      }
    },
  },
});

export interface FlowWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** Defaults to workflows/temporal/index.ts; tests pass a fixture. */
  workflowsPath?: string;
  /** Workflows bundled ahead (scripts/build.mjs --temporal-workflows), used instead of bundling them at start. */
  workflowBundlePath?: string;
  activities: ActivityFunctions;
}

/** A Temporal worker for our flows and activities (`npm run worker`; the Temporal tests). */
export function createFlowWorker(options: FlowWorkerOptions): Promise<Worker> {
  const { connection, namespace, taskQueue, workflowsPath, workflowBundlePath, activities } = options;
  const workflows = workflowBundlePath
    ? { workflowBundle: { codePath: workflowBundlePath } }
    : { workflowsPath: workflowsPath ?? TEMPORAL_WORKFLOWS_PATH };
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    ...workflows,
    activities,
    interceptors: { activity: [activityErrorNames] },
  });
}
