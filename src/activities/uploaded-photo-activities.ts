import type { MikroORM } from '@mikro-orm/postgresql';
import { placeUploadedPhoto } from '../services/uploads/photo-placement';

/** The uploaded-photo flow's own step (workflows/uploaded-photo.ts); its analysis is the build's `analyzePhoto`. */
export function createUploadedPhotoActivities({ orm }: { orm: MikroORM }) {
  return {
    placeUploadedPhoto: (photoId: string): Promise<boolean> => placeUploadedPhoto(orm, photoId),
  };
}

export type UploadedPhotoActivities = ReturnType<typeof createUploadedPhotoActivities>;
