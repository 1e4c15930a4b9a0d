import { Collection, Entity, Enum, Index, ManyToOne, OneToMany, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { EndUser } from './EndUser';
import { Product } from './Product';
import { Market } from './Market';
import { Photo } from './Photo';
import { PROJECT_STATUSES, PHOTOS_STATUSES, type PhotosStatus, type ProjectStatus } from '../../domain/project-status';
import { LAYOUT_TYPES, type Book, type LayoutType } from '../../domain/book';
import { TenantOwned } from './TenantOwned';

/** A photobook being made for one end user of a client, from `generate` until it is printed. */
@Entity({ tableName: 'projects' })
@Index({ name: 'projects_owner_listing_index', properties: ['owner', 'createdAt', 'id'] })
export class Project extends TenantOwned {
  /** `p-` followed by 24 random base62 characters. */
  @PrimaryKey({ type: 'string', length: 40 })
  id!: string;

  @ManyToOne(() => EndUser)
  owner!: EndUser;

  @ManyToOne(() => Product)
  product!: Product;

  @ManyToOne(() => Market)
  market!: Market;

  /** Snapshot of the product identifiers the project was made with (docs/api.md, Project object `product`). */
  @Property({ type: 'string', length: 100 })
  sku!: string;

  @Property({ type: 'string', length: 50 })
  psp!: string;

  @Property({ type: 'string', length: 35 })
  language!: string;

  @Enum({ items: () => LAYOUT_TYPES, nativeEnumName: 'layout_type' })
  layoutType: LayoutType & Opt = 'fastbook';

  @Property({ type: 'boolean' })
  eCommercePlugin: boolean & Opt = false;

  @Property({ type: 'json' })
  metadata: Record<string, unknown> & Opt = {};

  /** Values for template assets by id, e.g. `{ title: "Summer 2024" }`. */
  @Property({ type: 'json' })
  custom: Record<string, string> & Opt = {};

  @Property({ type: 'string', length: 2000, nullable: true })
  callbackUrl?: string | null;

  @Enum({ items: () => PROJECT_STATUSES, nativeEnumName: 'project_status' })
  status: ProjectStatus & Opt = 'created';

  /** Why the last build gave up (status `failed`); cleared when a rebuild starts. */
  @Property({ type: 'string', length: 500, nullable: true })
  buildProblem?: string | null;

  @Enum({ items: () => PHOTOS_STATUSES, nativeEnumName: 'photos_status' })
  photosStatus: PhotosStatus & Opt = 'none';

  @Property({ type: 'string', length: 300, nullable: true })
  title?: string | null;

  /**
   * The folder of the project's files in the FileStore: random, and unrelated to the id, because
   * the id is half of the editor link's credential and file URLs travel further (e-mails, order history).
   */
  @Property({ type: 'string', length: 40, defaultRaw: `replace(gen_random_uuid()::text, '-', '')` })
  storageKey!: string & Opt;

  /**
   * What the editor link's key is derived from (src/services/projects/editor-links.ts): the key is
   * an HMAC of id and seed under the credential pepper, so this column alone opens nothing. A new
   * seed (a transfer to another owner) ends every link made from the old one.
   */
  @Property({ type: 'string', length: 40, defaultRaw: `replace(gen_random_uuid()::text, '-', '')` })
  editorKeySeed!: string & Opt;

  /** Storage key of the rendered cover preview. */
  @Property({ type: 'string', length: 300, nullable: true })
  previewKey?: string | null;

  /** Lazy: listings never need the layout, which grows with the page count. */
  @Property({ type: 'json', nullable: true, lazy: true })
  book?: Book | null;

  /**
   * Counts the book's changes: each edit, undo and redo names the revision it was made on and makes
   * the next (a stale one is refused, so no edit is lost). A build or any other writer of `book` moves
   * it too (a trigger, Migration20261128090000), and then ends the edit history.
   */
  @Property({ type: 'integer' })
  bookRevision: number & Opt = 0;

  /** The revisions of the edits Undo takes back, latest last (book_edits); Redo's, latest undone last. */
  @Property({ type: 'json', lazy: true })
  undoStack: number[] & Opt = [];

  @Property({ type: 'json', lazy: true })
  redoStack: number[] & Opt = [];

  @Property({ type: 'boolean' })
  ordered: boolean & Opt = false;

  /**
   * The interior page count an order priced a book it rebuilds from its own photos at (a quote by
   * sku, or `metadata.pageCount`): the build lays the book out to exactly this many pages.
   */
  @Property({ type: 'integer', nullable: true })
  heldPageCount?: number | null;

  @OneToMany(
    () => Photo,
    (photo) => photo.project,
    { orderBy: { position: 'asc' } },
  )
  photos = new Collection<Photo>(this);

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date | null;
}
