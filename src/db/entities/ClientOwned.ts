import { Filter, ManyToOne } from '@mikro-orm/core';
import { Client } from './Client';
import { ownedByClient } from '../tenant-filter';

/**
 * What a row a client shares across its environments is (its catalogue and markets): the
 * `client` column and the tenant filter on it. Deleting a client deletes its rows.
 */
@Filter(ownedByClient)
export abstract class ClientOwned {
  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;
}
