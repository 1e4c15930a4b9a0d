import { Migration } from '@mikro-orm/migrations';

/**
 * Print production: an order line's cover sheet PDF beside its interior PDF, and the binding and
 * cover geometry every product now carries. Products imported before it get a 170 gsm hardcover
 * case-wrap (docs/print-production.md), the binding the print renderer assumed until then; an
 * operator re-imports the catalogue to state each product's own.
 */
export class Migration20261126000400 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_lines" add column "cover_pdf_key" varchar(300) null;`);
    this.addSql(
      `update "products" set "specifications" = jsonb_set("specifications", '{production}', ` +
        `'{"binding":"hardcover","leafThicknessMm":0.15,"boardThicknessMm":2.5,"wrapMm":15,"hingeMm":8,"spineTextMinPages":32}'::jsonb) ` +
        `where not ("specifications" ? 'production');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_lines" drop column "cover_pdf_key";`);
    this.addSql(`update "products" set "specifications" = "specifications" - 'production';`);
  }
}
