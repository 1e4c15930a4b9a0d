import type { FaceBox } from '../../domain/face-box';

/** What laying out a book reads of an analysed photo (build-steps.ts reads it, book-builder.ts lays it out). */
export interface BookPhoto {
  id: string;
  width: number;
  height: number;
  capturedAt: Date | null;
  quality: number;
  /** Position in the client's list: the tie-breaker that keeps the order stable. */
  position: number;
  /** EXIF GPS position, when the photo has one: a move far away starts a new event. */
  latitude?: number | null;
  longitude?: number | null;
  /** Faces found in the photo: a spread is given only to a photo whose faces stay off the fold. */
  faces?: FaceBox[] | null;
}
