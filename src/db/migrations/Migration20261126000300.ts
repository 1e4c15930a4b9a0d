import { Migration } from '@mikro-orm/migrations';

/** `<client>/<env>/projects/<folder>` as SQL over a projects row aliased `p`. */
const projectFolder = (folder: string) => `p.client_id || '/' || p.env || '/projects/' || ${folder}`;
/** `<client>/<env>/orders/<order uuid>/<folder>` over an order_lines row `l` and its orders row `o`. */
const printFolder = (folder: string) => `o.client_id || '/' || o.env || '/orders/' || o.id || '/' || ${folder}`;
/** `column` with its leading `from` folder replaced by `to`, where it lies under `from`. */
const moved = (column: string, from: string, to: string) =>
  `CASE WHEN ${column} LIKE (${from}) || '/%' THEN (${to}) || substr(${column}, length(${from}) + 1) ELSE ${column} END`;

/**
 * Stored files no longer sit under keys that name the project id (the editor link's credential):
 * every project gets a random `storage_key` for its folder, and print files move from the project
 * id to the order line's id. The keys the rows hold are rewritten here; the folders on disk are
 * listed in `pending_file_moves` and moved by the service at its next start, before it serves a
 * request (src/services/projects/file-moves.ts). Moved, not kept reachable: an old key in a URL
 * would hand out the credential for as long as the files live.
 * Clients get `shop_origins`, the shop origins that may frame the editor (CSP frame-ancestors).
 */
export class Migration20261126000300 extends Migration {
  override async up(): Promise<void> {
    // A volatile default is evaluated per row: each existing project gets its own random key.
    this.addSql(
      `alter table "projects" add column "storage_key" varchar(40) not null default replace(gen_random_uuid()::text, '-', '');`,
    );
    this.addSql(`alter table "clients" add column "shop_origins" jsonb not null default '[]';`);
    this.addSql(
      `create table "pending_file_moves" ("from_prefix" varchar(300) not null, "to_prefix" varchar(300) not null, constraint "pending_file_moves_pkey" primary key ("from_prefix"));`,
    );

    const oldProject = projectFolder('p.id');
    const newProject = projectFolder('p.storage_key');
    this.addSql(
      `insert into "pending_file_moves" ("from_prefix", "to_prefix") select ${oldProject}, ${newProject} from "projects" p;`,
    );
    this.addSql(
      `update "projects" p set "preview_key" = ${moved('p.preview_key', oldProject, newProject)} where "preview_key" is not null;`,
    );
    this.addSql(
      `update "photos" ph set "original_key" = ${moved('ph.original_key', oldProject, newProject)}, "thumbnail_key" = ${moved('ph.thumbnail_key', oldProject, newProject)} from "projects" p where ph.project_id = p.id;`,
    );
    this.addSql(
      `update "order_lines" l set "cover_preview_key" = ${moved('l.cover_preview_key', oldProject, newProject)} from "projects" p where l.project_id = p.id and l.cover_preview_key is not null;`,
    );

    const oldPrint = printFolder('l.project_id');
    const newPrint = printFolder('l.id::text');
    this.addSql(
      `insert into "pending_file_moves" ("from_prefix", "to_prefix") select ${oldPrint}, ${newPrint} from "order_lines" l join "orders" o on o.id = l.order_id;`,
    );
    this.addSql(
      `update "order_lines" l set "pdf_key" = ${moved('l.pdf_key', oldPrint, newPrint)}, "manifest_key" = ${moved('l.manifest_key', oldPrint, newPrint)} from "orders" o where o.id = l.order_id and l.pdf_key is not null;`,
    );
  }

  override async down(): Promise<void> {
    // The folders stay where they moved; only the bookkeeping goes.
    this.addSql(`drop table if exists "pending_file_moves" cascade;`);
    this.addSql(`alter table "clients" drop column "shop_origins";`);
    this.addSql(`alter table "projects" drop column "storage_key";`);
  }
}
