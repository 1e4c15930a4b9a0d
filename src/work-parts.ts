import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import type { WorkflowEngine } from './domain/flows';
import { createActivities } from './activities';
import { withInjectedFaults } from './activities/injected-faults';
import { startMetricsListener, type MetricsListener } from './http/metrics-listener';
import { createSafeFetch, type SafeFetch } from './outbound/safe-fetch';
import { createPrinters } from './printers/create-printers';
import { createPartnerPrinters } from './services/partners/partner-printers';
import { completePendingFileMoves } from './services/projects/file-moves';
import { loadCredentialPepper } from './services/tenancy/pepper';
import { createFileStore } from './storage/create-file-store';
import { withResourceFaultsClassified } from './storage/resource-faults';
import { limitImageProcessing } from './imaging/image-processing-limits';
import { useHeicDecoder } from './imaging/heic-decoder';
import type { FileStore } from './storage/file-store';

/**
 * What every process that works on the service's data is made of, whatever its role: the database,
 * the credential pepper, the file store (with the file moves an earlier process left half done
 * completed), the guarded outbound fetch and the printers, and the flows' activities built from
 * them. `npm start` (src/service.ts, every ROLE) and the Temporal worker (src/worker.ts) compose
 * themselves from it, so the two cannot drift apart.
 */
export interface WorkParts {
  database: Database;
  pepper: string;
  files: FileStore;
  fetch: SafeFetch;
  printers: ReturnType<typeof createPrinters>;
  /** The activities the flows call, starting flows of their own through `engine`. */
  activitiesFor(engine: WorkflowEngine): ReturnType<typeof createActivities>;
}

export async function assembleWorkParts(config: Config, log: Logger): Promise<WorkParts> {
  // Uploads and builds decode HEIC photos, renders too: said once, so an image without libheif1 shows.
  log.info(useHeicDecoder(config.heicDecoder), 'HEIC decoder');
  const database = await openDatabase(config, log);
  const pepper = await loadCredentialPepper(config);
  const files = createFileStore(config, pepper);
  await completePendingFileMoves(database.orm.em, files, log);
  const fetch = createSafeFetch({ allowLoopback: config.allowLoopbackUrls, userAgent: 'photobook-service/2' });
  // A routing rule may name a shop's partner printer: built from the shop's sealed account when a line is sent.
  const partners = createPartnerPrinters(config, { em: database.orm.em, pepper, fetch, files });
  const printers = createPrinters(config, files, fetch, (scope, partner) => partners.partnerPrinterFor(scope, partner));
  const activitiesFor = (engine: WorkflowEngine) => {
    // A process that runs activities does image work (photo analysis, previews) beside its requests.
    limitImageProcessing();
    return withInjectedFaults(
      withResourceFaultsClassified(
        createActivities({ orm: database.orm, files, fetch, log, printers, config, pepper, engine }),
      ),
      config,
      log,
    );
  };
  return { database, pepper, files, fetch, printers, activitiesFor };
}

/** The metrics listener (docs/operations.md, Metrics), or a start that fails saying which variable to change. */
export async function listenForMetrics(at: { host: string; port: number }, log: Logger): Promise<MetricsListener> {
  try {
    const listener = await startMetricsListener(at);
    log.info({ metricsUrl: `${listener.url}/metrics` }, 'metrics listening');
    return listener;
  } catch (error) {
    const reason = (error as Error).message;
    throw new Error(
      `cannot serve metrics on ${at.host}:${at.port} (METRICS_HOST, METRICS_PORT): ${reason}; ` +
        'set METRICS_PORT to a free port, 0 for any, or off',
      { cause: error },
    );
  }
}
