import { facesOnFold, isSpreadContinuation, isSpreadStart } from '../../domain/book-spreads';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo, Project, type Product } from '../../db/entities';
import type { Book } from '../../domain/book';
import type { SlotCrop } from '../../domain/slot-crop';
import { DomainError, NotFoundError, type FieldError } from '../../domain/errors';
import {
  COVER_PAGE,
  FILE_MISSING_PROBLEM,
  type FailedPhoto,
  type Preflight,
  type PreflightProblem,
} from '../../domain/preflight';
import { coverGeometry, type CoverGeometry } from '../../imaging/print/cover-geometry';
import { coverTextCuts } from '../../imaging/print/cover-sheet';
import { dpiWarning, effectiveDpi, UNPRINTABLE_DPI } from '../../imaging/print/effective-dpi';
import { MM_PER_INCH } from '../../imaging/print/print-geometry';
import { evenPageBounds, layoutSlots } from '../projects/book-builder';
import { assertProjectId } from '../projects/project-queries';
import type { RequestContext } from '../context';

/** `GET /v2/project/preflight` and `Project.preflight`: the project's book as it is now, checked for print. */
export async function preflightProject(ctx: RequestContext, id: unknown): Promise<Preflight> {
  assertProjectId(id, 'id');
  const project = await ctx.em.findOne(Project, { id, status: { $ne: 'deleted' } }, { populate: ['product', 'book'] });
  if (!project) throw new NotFoundError('project', id, 'id');
  return preflightBook(ctx.em, project, project.product);
}

/**
 * Checks a project's book as `product` would print it: enough usable photos (none usable, or fewer
 * than the product's `specifications.min.photos`, blocks: no blank paper by accident); the page count
 * within the product's even bounds; every placed photo stored (not failed, not gone) and sharp enough
 * in its slot (effective DPI: below 30 it is not printed, below 250 it is warned, as the renderer
 * warns); slots a layout has that no photo fills; blank pages the customer did not choose (warned);
 * cover texts the sheet cuts. A book still being built has nothing to check yet. The failed photos are
 * listed with their reasons either way.
 */
async function preflightBook(em: EntityManager, project: Project, product: Product): Promise<Preflight> {
  const book = project.book;
  const all = await em.find(Photo, { project: project.id }, { orderBy: { position: 'asc' } });
  const failedPhotos = all.filter(failed).map(failedPhotoView);
  if (!book) {
    const problems: PreflightProblem[] = [
      {
        code: 'BOOK_NOT_BUILT',
        severity: 'warning',
        message: `the book is still being built (${project.status}); the printer waits for it, and the preflight can check it once it is editable`,
      },
    ];
    return { printable: true, problems, usablePhotos: 0, failedPhotos };
  }
  const { specifications } = product;
  const photos = new Map(all.map((photo) => [photo.id, photo]));
  const usablePhotos = placedPhotoIds(book).filter((id) => {
    const photo = photos.get(id);
    return photo !== undefined && !failed(photo);
  }).length;
  const problems = [
    ...photoCountProblems(usablePhotos, failedPhotos, product),
    ...pageCountProblems(book, product),
    ...slotProblems(book, photos, specifications.format),
    ...blankPageProblems(book),
  ];
  if (book.pages.length >= 2 && book.pages.length % 2 === 0) {
    const geometry = coverGeometry(specifications.format, specifications.production, book.pages.length);
    problems.push(
      ...coverPhotoProblems(book, photos, geometry),
      ...(await coverTextProblems(book, geometry, specifications.format.dpi)),
    );
  }
  return { printable: problems.every((p) => p.severity !== 'blocking'), problems, usablePhotos, failedPhotos };
}

/** A photo that cannot be printed: its download or decoding failed, or its stored file is gone. */
function failed(photo: Photo): boolean {
  return photo.status === 'failed' || (photo.status === 'idle' && !photo.originalKey);
}

function failedPhotoView(photo: Photo): FailedPhoto {
  return {
    id: photo.id,
    ...(photo.clientPhotoId ? { clientPhotoId: photo.clientPhotoId } : {}),
    url: photo.url,
    problem: photo.problem ?? { ...FILE_MISSING_PROBLEM },
  };
}

/** Distinct photos the book prints: its pages' slots and the cover. */
function placedPhotoIds(book: Book): string[] {
  const ids = new Set(book.pages.flatMap((page) => page.photos.map((slot) => slot.photoId)));
  if (book.cover.photoId) ids.add(book.cover.photoId);
  ids.delete('');
  return [...ids];
}

/** The product's photo minimum (catalogue `specifications.min.photos`): below it, the book is mostly blank paper. */
function photoCountProblems(usable: number, failedPhotos: FailedPhoto[], product: Product): PreflightProblem[] {
  const minimum = product.specifications.min.photos;
  if (usable >= minimum) return [];
  const failures =
    failedPhotos.length === 0
      ? ''
      : `; ${failedPhotos.length} photo${failedPhotos.length === 1 ? '' : 's'} failed (${failedPhotos
          .slice(0, 3)
          .map((p) => `${p.clientPhotoId ?? p.id}: ${p.problem.message}`)
          .join('; ')}${failedPhotos.length > 3 ? '; …' : ''})`;
  if (usable === 0) {
    return [
      {
        code: 'NO_USABLE_PHOTO',
        severity: 'blocking',
        message: `the book has no photo that can be printed; ${product.sku} needs at least ${minimum}${failures}`,
      },
    ];
  }
  return [
    {
      code: 'TOO_FEW_PHOTOS',
      severity: 'blocking',
      message: `the book has ${usable} photo${usable === 1 ? '' : 's'} that can be printed; ${product.sku} needs at least ${minimum}${failures}`,
    },
  ];
}

/**
 * Pages that print as blank paper though the customer did not ask for it: no photo and no text, not
 * chosen blank in the editor (`blankChosen`), not the last page (an end page, blank by custom).
 */
function blankPageProblems(book: Book): PreflightProblem[] {
  const last = book.pages.length;
  return book.pages
    .filter(
      (page) =>
        page.photos.length === 0 &&
        // A spread's right page prints the other half of its left page's photo.
        !isSpreadContinuation(page) &&
        !page.texts.some((text) => text.text.trim()) &&
        !page.blankChosen &&
        page.number !== last,
    )
    .map((page) => ({
      code: 'BLANK_PAGE' as const,
      severity: 'warning' as const,
      page: page.number,
      message: `page ${page.number} has no photo and no text and prints blank: add a photo, or choose the Blank layout if it is meant to be`,
    }));
}

function pageCountProblems(book: Book, product: Product): PreflightProblem[] {
  const { minPages, maxPages } = evenPageBounds(product.specifications.min.pages, product.specifications.max.pages);
  const count = book.pages.length;
  const problems: PreflightProblem[] = [];
  if (count % 2 !== 0)
    problems.push({
      code: 'PAGE_COUNT_ODD',
      severity: 'blocking',
      message: `the book has ${count} pages; a bound book has an even page count (two pages a leaf)`,
    });
  if (count < minPages || count > maxPages) {
    problems.push({
      code: 'PAGE_COUNT_OUT_OF_RANGE',
      severity: 'blocking',
      message: `the book has ${count} pages; ${product.sku} has ${minPages} to ${maxPages}`,
    });
  }
  return problems;
}

function slotProblems(
  book: Book,
  photos: Map<string, Photo>,
  format: { widthMm: number; heightMm: number },
): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  for (const page of book.pages) {
    page.photos.forEach((slot, index) => {
      const at = { page: page.number, slot: index };
      problems.push(
        ...photoProblems(
          photos,
          slot.photoId,
          { width: (slot.width * format.widthMm) / MM_PER_INCH, height: (slot.height * format.heightMm) / MM_PER_INCH },
          at,
          slot.crop?.zoom,
        ),
      );
      if (isSpreadStart(page)) problems.push(...foldProblems(photos.get(slot.photoId), slot.crop, format, at));
    });
    const slots = isSpreadContinuation(page) ? 0 : layoutSlots(page.layout).length;
    for (let index = page.photos.length; index < slots; index++) {
      problems.push({
        code: 'EMPTY_SLOT',
        severity: 'warning',
        page: page.number,
        slot: index,
        message: `slot ${index + 1} of the ${page.layout} layout on page ${page.number} has no photo and prints empty`,
      });
    }
  }
  return problems;
}

/** The cover photo fills the front panel, its hinge, wrap and bleed: that area decides its resolution. */
function coverPhotoProblems(book: Book, photos: Map<string, Photo>, geometry: CoverGeometry): PreflightProblem[] {
  if (!book.cover.photoId) return [];
  const frontMm = {
    width: geometry.widthMm - (geometry.spine.xMm + geometry.spine.widthMm),
    height: geometry.heightMm,
  };
  return photoProblems(
    photos,
    book.cover.photoId,
    { width: frontMm.width / MM_PER_INCH, height: frontMm.height / MM_PER_INCH },
    { page: COVER_PAGE, slot: 0 },
  );
}

function photoProblems(
  photos: Map<string, Photo>,
  photoId: string,
  slotInches: { width: number; height: number },
  at: { page: number; slot: number },
  /** The slot's zoom (domain/slot-crop.ts): zooming in spreads fewer of the photo's pixels over the slot. */
  zoom = 1,
): PreflightProblem[] {
  const where = at.page === COVER_PAGE ? 'the cover photo' : `the photo in slot ${at.slot + 1} of page ${at.page}`;
  if (!photoId) return [{ code: 'EMPTY_SLOT', severity: 'blocking', ...at, message: `${where} is not set` }];
  const photo = photos.get(photoId);
  if (!photo)
    return [
      {
        code: 'PHOTO_MISSING',
        severity: 'blocking',
        ...at,
        message: `${where} (${photoId}) is no longer part of the project: replace it or move another photo there`,
      },
    ];
  if (photo.status === 'failed' || !photo.originalKey) {
    const reason = photo.problem ? `${photo.problem.message} (${photo.problem.code})` : 'it has no stored file';
    return [
      {
        code: 'PHOTO_FAILED',
        severity: 'blocking',
        ...at,
        message: `${where} (${photoId}) cannot be printed: ${reason}`,
      },
    ];
  }
  if (!photo.width || !photo.height) return [];
  const dpi = effectiveDpi({ width: photo.width, height: photo.height }, slotInches, zoom);
  const zoomed = zoom > 1 ? ` at zoom ${Math.round(zoom * 100) / 100}` : '';
  if (dpi < UNPRINTABLE_DPI) {
    return [
      {
        code: 'RESOLUTION_TOO_LOW',
        severity: 'blocking',
        ...at,
        message: `${where} has ${Math.round(dpi)} DPI on paper${zoomed}, below the ${UNPRINTABLE_DPI} DPI floor: use a larger photo, a smaller slot or less zoom`,
      },
    ];
  }
  const warning = dpiWarning(dpi);
  return warning
    ? [{ code: 'LOW_RESOLUTION', severity: 'warning', ...at, message: `${where}${zoomed}: ${warning}` }]
    : [];
}

async function coverTextProblems(book: Book, geometry: CoverGeometry, dpi: number): Promise<PreflightProblem[]> {
  return (await coverTextCuts(book.cover, geometry, dpi)).map((cut) => ({
    code: 'TEXT_CUT',
    severity: 'warning',
    page: COVER_PAGE,
    message: cut.message,
  }));
}

/**
 * `POST /v2/print`'s check, before anything is written: every project whose book is built and is
 * printed as it is (not rebuilt from photos sent with the order) must have no blocking problem.
 * Otherwise 422 NOT_PRINTABLE lists each blocking problem under `projects[i].id`.
 */
export async function assertPrintable(
  ctx: RequestContext,
  lines: { project: Project; product: Product; rebuilt: boolean; position?: number }[],
): Promise<void> {
  const errors: FieldError[] = [];
  for (const [index, line] of lines.entries()) {
    const i = line.position ?? index;
    if (line.rebuilt) continue;
    await ctx.em.populate(line.project, ['book']);
    const { problems } = await preflightBook(ctx.em, line.project, line.product);
    for (const problem of problems) {
      if (problem.severity !== 'blocking') continue;
      const where =
        problem.page === undefined ? '' : problem.page === COVER_PAGE ? 'cover: ' : `page ${problem.page}: `;
      errors.push({ path: `projects[${i}].id`, message: `${where}${problem.message} (${problem.code})` });
    }
  }
  if (errors.length > 0) {
    throw new DomainError(
      'rejected',
      'NOT_PRINTABLE',
      `not printable as it is: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors,
    );
  }
}

/** A spread's photo whose crop puts a face across the fold, where the opened book bends it: warned, the customer may move it. */
function foldProblems(
  photo: Photo | undefined,
  crop: SlotCrop | undefined,
  format: { widthMm: number; heightMm: number },
  at: { page: number; slot: number },
): PreflightProblem[] {
  if (!photo?.width || !photo.height) return [];
  const count = facesOnFold({ width: photo.width, height: photo.height }, photo.faces, format, crop);
  if (count === 0) return [];
  return [
    {
      code: 'FACE_ON_FOLD',
      severity: 'warning',
      ...at,
      message: `the photo across pages ${at.page} and ${at.page + 1} has ${count === 1 ? 'a face' : `${count} faces`} on the fold, where the opened book bends the paper: move the photo in its frame so that each face sits on one page`,
    },
  ];
}
