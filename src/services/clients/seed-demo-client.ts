import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Seeder } from '@mikro-orm/seeder';
import type { Logger } from 'pino';
import { Client } from '../../db/entities';
import { ClientAdmin } from './client-admin';

/**
 * On a database with no clients, creates a "Demo shop" client with the demo catalogue so a fresh
 * `npm start` answers real requests. Its secrets are written once to DATA_DIR/demo-client.json
 * (readable by the owner only), never to the log.
 */
class DemoClientSeeder extends Seeder {
  constructor(
    private readonly pepper: string,
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {
    super();
  }

  async run(em: EntityManager): Promise<void> {
    if ((await em.count(Client, {})) > 0) return;
    const issued = await new ClientAdmin(em, this.pepper).create('Demo shop');
    const file = path.join(this.dataDir, 'demo-client.json');
    await writeFile(file, `${JSON.stringify(issued, null, 2)}\n`, { mode: 0o600 });
    this.log.info({ clientId: issued.clientId, credentialsFile: file }, 'created the demo client');
  }
}

export function seedDemoClient(em: EntityManager, pepper: string, dataDir: string, log: Logger): Promise<void> {
  return new DemoClientSeeder(pepper, dataDir, log).run(em);
}
