import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { startTracing } from './telemetry/start-tracing';
import { EmbeddedPostgresInUseError, takeOverShutdownSignals } from './db/embedded-postgres';
import { anotherServiceOnDataDir, forgetRunningService, recordRunningService } from './db/running-service-record';
import { isPortTaken, portTakenBeforeStart, portTakenMessage } from './http/port-taken';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The message names the variable; a stack trace would only bury it.
  console.error(error.message);
  process.exit(1);
}
if (config.role === 'worker' && config.temporal) {
  console.error(
    'Invalid configuration: ROLE=worker with TEMPORAL_ADDRESS set. Under Temporal, flows run in Temporal workers: ' +
      'start them with `npm run worker`; `npm start` then serves requests (ROLE=api or all).',
  );
  process.exit(1);
}
const log = createLogger(config.logLevel);
// What another process holds (this DATA_DIR's database, the port) is said in a line: no stack trace.
const refusal =
  (config.databaseUrl ? undefined : await anotherServiceOnDataDir(config.dataDir)) ??
  (await portTakenBeforeStart(config.host, config.port));
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
const tracing = await startTracing(config);
// Loaded once tracing runs (when configured), so that its instrumentations see pg and graphql being required.
const { startService } = await import('./service');
const service = await startService(config, log).catch((error: unknown) => {
  // A race past the checks above: another start took the database or the port meanwhile.
  if (error instanceof EmbeddedPostgresInUseError) console.error(error.message);
  else if (isPortTaken(error)) console.error(portTakenMessage(config.host, config.port));
  else throw error;
  process.exit(1);
});
log.info({ url: service.url, role: config.role }, 'photobook service listening');
if (!config.databaseUrl) await recordRunningService({ url: service.url, dataDir: config.dataDir, role: config.role });

takeOverShutdownSignals();
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // `on`, not `once`: Ctrl-C under `npm start` delivers SIGINT twice (the terminal's and npm's
  // forwarded copy), and a second signal with no handler would kill the process mid-drain.
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await service.stop();
      await tracing?.shutdown();
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    if (!config.databaseUrl) await forgetRunningService(config.dataDir);
    log.info('photobook service stopped');
    process.exit(0);
  });
}
