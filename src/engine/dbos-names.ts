/** Where the embedded engine's runs live in DBOS's tables, and under which names. */

/**
 * The application version DBOS stamps on every run it starts. DBOS recovers only the pending runs
 * of the version it is launched with, and by default derives the version from a hash of the
 * registered code: any release would then orphan every fulfilment waiting (for days) for printer
 * events. So it is a constant: keep it while flows change compatibly (their calls to the context
 * happen in the same order for runs already under way); change it only together with a plan for
 * the runs of the old version (let them finish on a process still running it, or fork them).
 */
export const FLOW_CODE_VERSION = 'photobook-flows-1';

/** Our name in DBOS's tables; runs, queues and schedules are scoped to it. */
export const APPLICATION_NAME = 'photobook';

/**
 * The queue of flows that have no queue of their own but cannot start in the calling process:
 * started from inside an activity (a step, where DBOS refuses to start a workflow) or by an API
 * process, which runs no flows. They are enqueued through a DBOSClient; the processes that run
 * flows take them from here. No limit: it only hands them over.
 */
export const FLOW_START_QUEUE = 'started-from-activities';

/** The schema of DBOS's tables, in the application's own database. */
export const DBOS_SCHEMA = 'dbos';
