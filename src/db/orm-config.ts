import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { SeedManager } from '@mikro-orm/seeder';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function ormConfig(clientUrl: string, options: { poolMax?: number } = {}) {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    // Entities are listed explicitly and every property names its type, so no file scanning and
    // no reliance on emitted decorator metadata (tsx and vitest do not emit it).
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    extensions: [Migrator, SeedManager],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    // A tenant's row only references rows of the same tenant, and the tenant filter already holds
    // on the row itself: joining every many-to-one target to check it again would be pure cost.
    autoJoinRefsForFilters: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: options.poolMax ?? 10 },
    allowGlobalContext: false,
    debug: false,
  });
}
