import 'reflect-metadata';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startService } from './service';

const config = loadConfig();
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
