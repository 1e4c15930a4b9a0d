/**
 * The Temporal worker (`npm run worker`): executes the flows of workflows/ (bundled from
 * workflows/temporal/index.ts) and their activities for the API processes, which only start and
 * signal them. Needs TEMPORAL_ADDRESS; without it, flows run inside the API process instead.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NativeConnection } from '@temporalio/worker';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { takeOverShutdownSignals } from './db/embedded-postgres';
import { createFlowWorker } from './engine/temporal-worker';
import { TemporalEngine } from './engine/temporal-engine';
import { FLOWS } from '../workflows';
import { startOutboxRelay } from './services/webhooks/outbox-relay';
import { assembleWorkParts, listenForMetrics } from './work-parts';

function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) exitWith(error.message);
  throw error;
}
if (!config.temporal) {
  exitWith(
    'Invalid configuration: TEMPORAL_ADDRESS is not set. The worker executes flows for a Temporal server ' +
      '(e.g. TEMPORAL_ADDRESS=localhost:7233); without Temporal, flows run inside the API process (npm start) and no worker is needed.',
  );
}
if (!config.databaseUrl) {
  exitWith(
    "Invalid configuration: DATABASE_URL is not set. The worker's activities work on the API's database, " +
      'so it cannot start an embedded PostgreSQL of its own; set DATABASE_URL to the database the API uses.',
  );
}
const temporal = config.temporal;

const log = createLogger(config.logLevel);
// Before the Temporal runtime (made with the first connection) installs its own handlers.
takeOverShutdownSignals();
let connection: NativeConnection;
try {
  connection = await NativeConnection.connect({ address: temporal.address });
} catch (error) {
  exitWith(`Cannot reach Temporal at TEMPORAL_ADDRESS=${temporal.address}: ${(error as Error).message}`);
}
const { database, activitiesFor } = await assembleWorkParts(config, log);
// Campaign and notification activities start flows (project builds, webhook deliveries).
const engine = await TemporalEngine.connect({ ...temporal, flowNames: FLOWS.map((flow) => flow.contract.name), log });
const activities = activitiesFor(engine);
// The relay starts the deliveries the outbox holds; API processes (ROLE=api) leave it to workers.
const relay = startOutboxRelay(database.orm.em, { engine, config }, log);
// Its renders, printer calls and webhook attempts are counted here: scrape it like any process
// (docs/operations.md, Metrics).
// Beside an API process on this host the default port is taken: the message names METRICS_PORT.
const metrics = config.metrics.listen
  ? await listenForMetrics(config.metrics.listen, log).catch((error: Error) => exitWith(error.message))
  : undefined;

// Built ahead of time (the image: scripts/build.mjs --temporal-workflows), the workflows' bundle lies next to
// this module; run from the sources (tsx), Temporal bundles workflows/temporal at start instead.
const prebuiltWorkflows = fileURLToPath(new URL('./temporal-workflows.js', import.meta.url));
const workflowBundlePath = existsSync(prebuiltWorkflows) ? prebuiltWorkflows : undefined;

try {
  const { namespace, taskQueue } = temporal;
  const worker = await createFlowWorker({ connection, namespace, taskQueue, activities, workflowBundlePath });
  log.info(
    { address: temporal.address, namespace: temporal.namespace, taskQueue: temporal.taskQueue },
    'Temporal worker running',
  );
  // Temporal's runtime shuts the worker down gracefully on SIGINT and SIGTERM (its default
  // shutdownSignals); run() resolves once in-flight tasks have finished.
  await worker.run();
  log.info('Temporal worker stopped');
} finally {
  await metrics?.close();
  await relay.stop();
  await connection.close();
  await engine.stop();
  await database.close();
}
