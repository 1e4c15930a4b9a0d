import type { BookCover, BookPage } from '../../domain/book';
import type { PhotoPlacement } from './render-page';
import type { PrintFormat } from './print-geometry';
import type { CoverGeometry } from './cover-geometry';
import type { FaceBox } from '../../domain/face-box';

/** One print page (or the cover) to render, as the render process receives it: paths, not bytes. */
export interface RenderJob {
  /** The book whose photos' colour corrections may be reused across its pages. */
  bookKey: string;
  format: PrintFormat;
  colorCorrection: boolean;
  /** The printer's output profile (PrintOutput.profile): pages are converted to it. */
  outputProfile: string;
  /** Each photo the page uses, by id: the file of its stored original. */
  photoFiles: Record<string, string>;
  /** The faces found in each photo the page uses (Photo.faces), by id. */
  photoFaces?: Record<string, FaceBox[] | null>;
  /** Where the page's JPEG is written (atomically: a temporary file, then renamed). */
  outFile: string;
  page?: BookPage;
  /** The cover sheet: the cover's photo and texts on the sheet of this geometry. */
  cover?: { cover: BookCover; geometry: CoverGeometry };
}

export type RenderReply = { id: number; placements: PhotoPlacement[] } | { id: number; error: string };
