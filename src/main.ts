import 'reflect-metadata';
import { pino } from 'pino';
import { loadConfig } from './config';
import { startService } from './service';

const config = loadConfig();
const log = pino({ level: config.logLevel });
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
