import { Migration } from '@mikro-orm/migrations';

/**
 * Smartbook curation (docs/api.md, Curation): what the analysis learns of a photo for curation (its
 * perceptual hash, exposure score and GPS position) and the build's decision about it (`curation`:
 * kept or left out, why, its group and score), null until a smartbook build decided.
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "photos" add column "perceptual_hash" varchar(32) null, add column "exposure" numeric(5,4) null, add column "latitude" double precision null, add column "longitude" double precision null, add column "curation" jsonb null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "photos" drop column "perceptual_hash", drop column "exposure", drop column "latitude", drop column "longitude", drop column "curation";`,
    );
  }
}
