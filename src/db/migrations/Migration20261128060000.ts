import { Migration } from '@mikro-orm/migrations';

/**
 * Claims and remakes (docs/api.md): a remake is an order of its own that names the order it
 * remakes (`remake_of_id`, indexed: the original lists its remakes) and carries the claim it was
 * made for (`claim`). Deleting an original leaves its remakes standing.
 */
export class Migration20261128060000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "remake_of_id" uuid null, add column "claim" jsonb null;`);
    this.addSql(
      `alter table "orders" add constraint "orders_remake_of_id_foreign" foreign key ("remake_of_id") references "orders" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`create index "orders_remake_of_id_index" on "orders" ("remake_of_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop constraint "orders_remake_of_id_foreign";`);
    this.addSql(`drop index "orders_remake_of_id_index";`);
    this.addSql(`alter table "orders" drop column "remake_of_id", drop column "claim";`);
  }
}
