import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Photo, Project } from '../../db/entities';
import type { Book, BookPage, PageLayout } from '../../domain/book';
import { effectiveStatus } from '../projects/project-view';
import { blankPage, evenPageBounds, layoutSlots, placeOnLayout } from '../projects/book-builder';
import { emForPhoto } from '../tenancy/row-tenant-scope';
import { recordEdit } from '../editor/book-history';
import { BOOK_SUBJECT } from '../../domain/status-subjects';
import { recordStatusChange } from '../../events/status-event-log';

/** The next larger layout for one more photo on a page; grid-6 is the largest. */
const ROOM_FOR_ONE_MORE: Partial<Record<PageLayout, PageLayout>> = {
  blank: 'full',
  full: 'two-side-by-side',
  centred: 'two-side-by-side',
  'two-side-by-side': 'grid-4',
  'two-stacked': 'grid-4',
  'hero-left': 'grid-4',
  'hero-top': 'hero-top-three',
  'three-columns': 'grid-4',
  'three-rows': 'grid-4',
  'grid-4': 'grid-4',
};

/**
 * Where an uploaded photo goes in a built book: on the blank page after the last page with
 * photos; else on two new pages at the end while the product has room for them; else beside the
 * photos of the last page that can take one more. Unchanged (the photo stays unplaced, among the
 * project's photos) when the book is full or already holds it.
 */
export function placePhoto(book: Book, photoId: string, maxPages: number): Book {
  if (book.pages.some((page) => page.photos.some((slot) => slot.photoId === photoId))) return book;
  const lastWithPhotos = book.pages.findLastIndex((page) => page.photos.length > 0);
  const blank = book.pages.findIndex((page, i) => i > lastWithPhotos && page.layout === 'blank');
  const pages = [...book.pages];
  if (blank >= 0) {
    pages[blank] = { ...placeOnLayout('full', [photoId]), number: pages[blank].number, texts: pages[blank].texts };
    return { ...book, pages };
  }
  if (pages.length + 2 <= maxPages) {
    pages.push(
      { ...placeOnLayout('full', [photoId]), number: pages.length + 1 },
      { ...blankPage(), number: pages.length + 2 },
    );
    return { ...book, pages };
  }
  for (let i = pages.length - 1; i >= 0; i--) {
    const page: BookPage = pages[i];
    const layout = ROOM_FOR_ONE_MORE[page.layout];
    if (!layout || page.photos.length + 1 > layoutSlots(layout).length) continue;
    const ids = [...page.photos.map((slot) => slot.photoId), photoId];
    pages[i] = { ...placeOnLayout(layout, ids), number: page.number, texts: page.texts };
    return { ...book, pages };
  }
  return book;
}

/**
 * The uploaded-photo flow's last step: an analysed photo takes its place in its project's book
 * (placePhoto), under the project's row lock, while the book is the editor's (editable and not
 * ordered), as an edit of the book's history (undoable, announced on bookRevised). A photo that
 * failed or is gone, or a project that is not editable, is left as it is: the photo stays among the
 * project's photos. Answers whether the book changed.
 */
export async function placeUploadedPhoto(orm: MikroORM, photoId: string): Promise<boolean> {
  const em = await emForPhoto(orm, photoId);
  if (!em) return false;
  return em.transactional(async (tx) => {
    const photo = await tx.findOne(Photo, { id: photoId }, { fields: ['status', 'project'] });
    if (photo?.status !== 'idle') return false;
    const project = await tx.findOne(
      Project,
      { id: photo.project.id },
      { populate: ['book', 'product', 'undoStack', 'redoStack'], lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!project?.book || project.ordered || effectiveStatus(project) !== 'editable') return false;
    const { min, max } = project.product.specifications;
    const book = placePhoto(project.book, photoId, evenPageBounds(min.pages, max.pages).maxPages);
    if (book === project.book) return false;
    // An edit like the customer's own (undoable, the next revision, told on bookRevised): the
    // editor open on the book sees the photo arrive, and the customer's undo history is kept.
    await recordEdit(tx, project as typeof project & { book: Book }, 'placeUploadedPhoto', book);
    tx.assign(project, { book, updatedAt: new Date() });
    await recordStatusChange(
      tx,
      { clientId: project.client.id, env: project.env },
      {
        subjectType: BOOK_SUBJECT,
        subjectId: project.id,
        status: 'revised',
        detail: { revision: project.bookRevision, edit: 'placeUploadedPhoto' },
      },
    );
    return true;
  });
}
