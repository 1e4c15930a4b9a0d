/**
 * Writes a migration for the difference between the entities and the database at DATABASE_URL
 * (or a fresh embedded one): `npm run migration:create`. Register the new file in migrations/index.ts.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { ormConfig } from './orm-config';
import { ensureDatabaseExists } from './database';
import { startEmbeddedPostgres } from './embedded-postgres';

const config = loadConfig();
const log = createLogger(config.logLevel);
const embedded = config.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(config.dataDir, log, { dataDirIsDefault: config.dataDirIsDefault });
if (embedded) await ensureDatabaseExists(embedded.serverUrl, 'photobook_migrations');
const url = config.databaseUrl ?? `${embedded!.serverUrl}/photobook_migrations`;
const base = ormConfig(url);
const orm = await MikroORM.init({
  ...base,
  migrations: { ...base.migrations, path: 'src/db/migrations', pathTs: 'src/db/migrations', emit: 'ts' },
});
const migrator = orm.getMigrator();
await migrator.up();
const result = await migrator.createMigration('src/db/migrations', false, false);
console.log(result.fileName ? `created ${result.fileName}` : 'no changes');
await orm.close();
await embedded?.stop();
