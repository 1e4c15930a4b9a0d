import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';
import { Project } from './Project';
import { OrderLine } from './OrderLine';
import type { PrintPdf } from '../../domain/print-output';
import type { PrintWarning } from '../../domain/print-warning';

/** One print file of a proof, as the shop is answered it: the printer receives exactly these bytes. */
export interface ProofFile {
  name: string;
  sha256: string;
  bytes: number;
  pages: number;
}

/**
 * A project's print files rendered before the order (`POST /v2/project/proof`), and the book they
 * were rendered from (`revision`): an order naming the proof prints these files, or is refused
 * when the book changed since. Its files live under the project's folder until the proof expires,
 * or until the order that uses it (`orderLine`) has copied them to its own.
 */
@Entity({ tableName: 'proofs' })
@Index({ properties: ['client', 'env', 'expiresAt'] })
@Index({ properties: ['project'] })
@Unique({ properties: ['orderLine'] })
export class Proof extends TenantOwned {
  /** `pr_` and 24 base62 characters. */
  @PrimaryKey({ type: 'string', length: 30 })
  id!: string;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  /** SHA-256 (hex) of what the print is rendered from: the book, its product's geometry, its photos' originals. */
  @Property({ type: 'string', length: 64 })
  revision!: string;

  @Property({ type: 'string', length: 100 })
  sku!: string;

  @Property({ type: 'string', length: 50 })
  psp!: string;

  /** The order's `metadata.colorCorrection` the files were rendered with. */
  @Property({ type: 'boolean' })
  colorCorrection!: boolean;

  @Property({ type: 'json' })
  files!: ProofFile[];

  @Property({ type: 'json' })
  coverPdf!: PrintPdf;

  @Property({ type: 'json' })
  interiorPdf!: PrintPdf;

  /** Photos that will print soft, as an order line records them. */
  @Property({ type: 'json' })
  warnings: PrintWarning[] & Opt = [];

  /** The order line that prints this proof; a proof holds one order. */
  @ManyToOne(() => OrderLine, { nullable: true, deleteRule: 'cascade' })
  orderLine?: OrderLine | null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
