import { Migration } from '@mikro-orm/migrations';

/**
 * Face boxes per photo (docs/api.md, Faces): where the detector found faces, in 0..1 of the upright
 * photo; null until the photo is analysed (and for photos analysed before faces were looked for).
 * A column of `photos`, so it has the photo's tenancy and goes with the photo and its project.
 */
export class Migration20261203100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "photos" add column "faces" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "photos" drop column "faces";`);
  }
}
