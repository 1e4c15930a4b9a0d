import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config';
import { seedDemoClient } from './services/clients/seed-demo-client';
import { StatusEventBus } from './events/status-event-bus';
import { buildApp } from './http/app';
import { buildWorkerApp } from './http/worker-app';
import { createAppServices } from './services/app-services';
import type { FileStore } from './storage/file-store';
import { CredentialCache, watchCredentialChanges } from './services/tenancy/credential-cache';
import { createWorkflowEngine } from './engine/create-engine';
import type { WorkflowEngine } from './domain/flows';
import { LateBoundEngine } from './engine/late-bound-engine';
import { FLOWS } from '../workflows';
import { startOutboxRelay } from './services/webhooks/outbox-relay';
import { startUploadExpiry, uploadExpiryIntervalMs } from './services/uploads/upload-expiry';
import { watchParkedFlows } from './engine/parked-flows';
import { failWorkOfParkedFlow } from './engine/parked-flow-lines';
import { reportServiceState } from './metrics/service-state';
import { QUEUE_NAMES } from './engine/create-engine';
import { queueBacklog } from './engine/queue-backlog';
import { orderLinesByStatus } from './services/orders/order-line-counts';
import { webhookBacklog } from './services/webhooks/webhook-backlog';
import { assembleWorkParts, listenForMetrics } from './work-parts';

export interface RunningService {
  app: FastifyInstance;
  orm: MikroORM;
  bus: StatusEventBus;
  engine: WorkflowEngine;
  files: FileStore;
  url: string;
  /** The metrics listener's `http://host:port/metrics`; absent with METRICS_PORT=off. */
  metricsUrl?: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * How long requests under way at shutdown get to finish before their connections are closed. Node
 * waits for every response to end, and a client that stopped reading a download (a phone put away
 * halfway through a print PDF) keeps its response open for as long as it keeps its socket:
 * without a bound, anyone with one file URL could hold a deploy's shutdown.
 */
const SHUTDOWN_GRACE_MS = 10_000;

/** How often a process running flows looks for runs the engine has parked (src/engine/parked-flows.ts). */
const PARKED_FLOW_CHECK_MS = 15_000;

/**
 * Starts what `npm start` runs for its ROLE: database (embedded if needed), migrations, then
 * - all (default): seed (outside production), the workflow engine (resuming unfinished flows when
 *   embedded), the outbox relay and the whole HTTP API;
 * - api: seed, an engine that only enqueues and signals, and the whole HTTP API;
 * - worker: the engine running flows, queues and schedules, the outbox relay, and HTTP for health
 *   and metrics only.
 */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const runsFlows = config.role !== 'api';
  const servesClients = config.role !== 'worker';
  const { database, pepper, files, printers, activitiesFor } = await assembleWorkParts(config, log);
  // A production database gets its clients from an operator (`npm run cli -- client create`), never a demo one with known files of secrets.
  if (!config.production && servesClients) await seedDemoClient(database.orm.em.fork(), pepper, config.dataDir, log);
  const bus = new StatusEventBus(database.url, log);
  if (servesClients) await bus.start();
  const lateEngine = new LateBoundEngine();
  const activities = runsFlows ? activitiesFor(lateEngine) : {};
  const engine = await createWorkflowEngine({ config, databaseUrl: database.url, flows: FLOWS, activities, log });
  lateEngine.bind(engine);
  const relay = runsFlows ? startOutboxRelay(database.orm.em, { engine, config }, log) : undefined;
  const parkedFlows = engine.parkedFlows?.bind(engine);
  const parkedWatch =
    runsFlows && parkedFlows
      ? watchParkedFlows({
          parkedFlows,
          onParked: (flow) => failWorkOfParkedFlow(database.orm, flow),
          intervalMs: PARKED_FLOW_CHECK_MS,
          log,
        })
      : undefined;
  // Deployment-wide figures read at scrape time (src/metrics/service-state.ts); queues are DBOS's.
  const stateReport = reportServiceState({
    ...(parkedFlows ? { parkedFlows: async () => (await parkedFlows()).length } : {}),
    ...(config.temporal ? {} : { queues: () => queueBacklog(database.orm.em, QUEUE_NAMES) }),
    orderLines: () => orderLinesByStatus(database.orm.em),
    webhooks: () => webhookBacklog(database.orm.em),
  });
  const credentialCache = new CredentialCache();
  const credentialWatch = servesClients ? await watchCredentialChanges(database.url, credentialCache, log) : undefined;
  const services = servesClients
    ? createAppServices({ config, em: database.orm.em, pepper, files, engine, printers, log, credentialCache })
    : undefined;
  const app = services
    ? await buildApp({ config, services, bus, log })
    : await buildWorkerApp({
        em: database.orm.em,
        log,
        metricsToken: config.metrics.token,
        store: { files, minFreeBytes: config.limits.storeMinFreeBytes },
        limits: config.limits,
      });
  const uploadExpiry = services
    ? startUploadExpiry(services.uploads, uploadExpiryIntervalMs(config.durations.uploadExpiryMs), log)
    : undefined;
  const address = await app.listen({ host: config.host, port: config.port });
  const metrics = config.metrics.listen ? await listenForMetrics(config.metrics.listen, log) : undefined;
  return {
    app,
    orm: database.orm,
    bus,
    engine,
    files,
    url: address,
    ...(metrics ? { metricsUrl: `${metrics.url}/metrics` } : {}),
    databaseUrl: database.url,
    async stop() {
      const closeLingering = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(closeLingering);
      }
      await metrics?.close();
      stateReport.stop();
      await relay?.stop();
      await uploadExpiry?.stop();
      await parkedWatch?.stop();
      await credentialWatch?.stop();
      await engine.stop();
      await bus.stop();
      await database.close();
    },
  };
}
