import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A folder of stored files still under a key that named a project id (the layout before opaque
 * storage keys), and the key it moves to. Migration20261126000300 lists them and rewrites the keys
 * the rows hold; the service moves the folders when it starts (src/services/projects/file-moves.ts)
 * and deletes each row once its folder moved. Not tenant-owned: the operator's housekeeping.
 */
@Entity({ tableName: 'pending_file_moves' })
export class PendingFileMove {
  @PrimaryKey({ type: 'string', length: 300 })
  fromPrefix!: string;

  @Property({ type: 'string', length: 300 })
  toPrefix!: string;
}
