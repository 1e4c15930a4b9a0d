import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { startService } from './service';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The message names the variable; a stack trace would only bury it.
  console.error(error.message);
  process.exit(1);
}
const log = createLogger(config.logLevel);
const service = await startService(config, log);
log.info({ url: service.url }, 'photobook service listening');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await service.stop();
    process.exit(0);
  });
}
