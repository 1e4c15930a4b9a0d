import { Migration } from '@mikro-orm/migrations';

/**
 * The page count an order priced a book at when the order rebuilds the book from its own photos
 * (a quote by sku, or `metadata.pageCount`): the build lays the book out to it, so a rebuilt book
 * prints with the pages that were paid for (issue 39).
 */
export class Migration20261127110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "held_page_count" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "held_page_count";`);
  }
}
