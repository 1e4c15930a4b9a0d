import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';
import type { RoutingRule } from '../../domain/print-routing';

/** A shop's print routing per environment (docs/api.md, Printers and routing): rules, default printers, hold window. */
@Entity({ tableName: 'print_settings' })
@Unique({ properties: ['client', 'env'] })
export class PrintSettings extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'json' })
  rules: RoutingRule[] & Opt = [];

  @Property({ type: 'json' })
  defaultPrinters: string[] & Opt = [];

  @Property({ type: 'integer' })
  holdWindowSeconds: number & Opt = 0;

  @Property({ type: 'integer', nullable: true })
  acceptTimeoutSeconds?: number | null;

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
