import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { PendingFileMove } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';

const BATCH = 500;

/**
 * Moves the folders Migration20261126000300 listed (files stored under keys that named a project
 * id) to the keys the rows now hold. Runs when the service starts, before it serves a request or
 * resumes a flow; several processes starting at once share the work (SKIP LOCKED). Idempotent: a
 * folder already moved, or never written, is done. Answers how many folders moved.
 */
export async function completePendingFileMoves(em: EntityManager, files: FileStore, log: Logger): Promise<number> {
  let moved = 0;
  for (;;) {
    const done = await em.fork().transactional(async (tx) => {
      const batch = await tx.find(PendingFileMove, {}, { limit: BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
      for (const move of batch) {
        if (await files.move(move.fromPrefix, move.toPrefix)) moved++;
        tx.remove(move);
      }
      return batch.length;
    });
    if (done < BATCH) break;
  }
  if (moved > 0) log.info({ folders: moved }, 'moved stored files to their opaque storage keys');
  return moved;
}
