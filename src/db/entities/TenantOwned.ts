import { Enum, Filter, ManyToOne } from '@mikro-orm/core';
import { Client } from './Client';
import { ENVIRONMENTS, type Environment } from '../../domain/environment';
import { ownedByTenant } from '../tenant-filter';

/**
 * What a tenant-owned row is: the `client` and `env` columns, and the tenant filter on them, so a
 * query of an entity that extends this sees only the caller's client and environment. Deleting a
 * client deletes its rows.
 */
@Filter(ownedByTenant)
export abstract class TenantOwned {
  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

  @Enum({ items: () => ENVIRONMENTS, nativeEnumName: 'environment' })
  env!: Environment;
}
