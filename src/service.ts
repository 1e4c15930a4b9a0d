import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { seedDemoClient } from './db/seed-demo-client';
import { StatusEventBus } from './events/status-event-bus';
import { buildApp } from './http/app';
import { createAppServices } from './services/app-services';
import { loadCredentialPepper } from './services/tenancy/pepper';

export interface RunningService {
  app: FastifyInstance;
  orm: MikroORM;
  bus: StatusEventBus;
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** Starts everything `npm start` runs: database (embedded if needed), migrations, seed, HTTP. */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const database = await openDatabase(config, log);
  const pepper = await loadCredentialPepper(config);
  await seedDemoClient(database.orm.em.fork(), pepper, config.dataDir, log);
  const bus = new StatusEventBus(database.url, log);
  await bus.start();
  const services = createAppServices(config, database.orm.em, pepper);
  const app = await buildApp({ config, services, bus, log });
  const address = await app.listen({ host: config.host, port: config.port });
  return {
    app,
    orm: database.orm,
    bus,
    url: address,
    databaseUrl: database.url,
    async stop() {
      await app.close();
      await bus.stop();
      await database.close();
    },
  };
}
