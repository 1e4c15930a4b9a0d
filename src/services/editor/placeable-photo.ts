import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo } from '../../db/entities';
import { NotFoundError, RejectedError, ValidationError } from '../../domain/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refuses a photo the editor may not put into this project's book: one that is not a photo of this
 * project (unknown, another project's or another tenant's: one answer, so an editor link learns
 * nothing of photos beyond its own project), one still uploading or being analysed, or one that
 * failed (with why). `tx` is the edit's transaction, inside the project's row lock.
 */
export async function requirePlaceablePhoto(tx: EntityManager, projectId: string, photoId: unknown): Promise<string> {
  if (typeof photoId !== 'string' || !photoId)
    throw ValidationError.field('photoId', 'is required: the id of one of the project’s photos (an upload id is one)');
  if (!UUID.test(photoId)) throw new NotFoundError('photo', photoId, 'photoId');
  const photo = await tx.findOne(
    Photo,
    { id: photoId, project: projectId },
    { fields: ['status', 'problem'], disableIdentityMap: true },
  );
  if (!photo) throw new NotFoundError('photo', photoId, 'photoId');
  if (photo.status === 'failed') {
    throw new RejectedError(
      'PHOTO_FAILED',
      'photoId',
      `photo ${photoId} failed (${photo.problem?.code ?? 'unknown'}: ${photo.problem?.message ?? 'no reason recorded'}) and cannot be printed`,
    );
  }
  if (photo.status !== 'idle') {
    throw new RejectedError(
      'PHOTO_NOT_READY',
      'photoId',
      `photo ${photoId} is ${photo.status}: it can be placed once it is analysed (status idle)`,
    );
  }
  return photoId;
}
