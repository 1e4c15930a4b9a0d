import type { EntityManager } from '@mikro-orm/postgresql';
import { BookEdit, type Project } from '../../db/entities';
import type { Book } from '../../domain/book';
import { ConflictError } from '../../domain/errors';

/** How many edits Undo reaches back; older ones are forgotten (each keeps two copies of the book). */
const UNDO_DEPTH = 100;

type LockedProject = Project & { book: Book };

/*
 * A book's edit history, kept in the database so Undo and Redo survive a reload and work from any
 * device: each edit is a row with the book before and after it; the project names the edits Undo
 * takes back (`undoStack`) and the ones Redo replays (`redoStack`). Undo and redo are revisions of
 * their own, so other editors hear of them like any edit. The caller holds the project's row lock.
 */

/** Records an edit that makes `book`: it can be undone; what was undone before it can no longer be redone. */
export function recordEdit(tx: EntityManager, project: LockedProject, edit: string, book: Book) {
  const revision = project.bookRevision + 1;
  tx.persist(tx.create(BookEdit, { project, revision, edit, bookBefore: project.book, bookAfter: book }));
  return next(tx, project, book, edit, [...project.undoStack, revision].slice(-UNDO_DEPTH), []);
}

export async function undoEdit(tx: EntityManager, project: LockedProject) {
  const revision = project.undoStack.at(-1);
  if (revision === undefined) throw new ConflictError('NOTHING_TO_UNDO', `project ${project.id} has no edit to undo`);
  const { bookBefore, edit } = await tx.findOneOrFail(BookEdit, { project, revision });
  return next(tx, project, bookBefore, `undo ${edit}`, project.undoStack.slice(0, -1), [
    ...project.redoStack,
    revision,
  ]);
}

export async function redoEdit(tx: EntityManager, project: LockedProject) {
  const revision = project.redoStack.at(-1);
  if (revision === undefined)
    throw new ConflictError('NOTHING_TO_REDO', `project ${project.id} has no undone edit to redo`);
  const { bookAfter, edit } = await tx.findOneOrFail(BookEdit, { project, revision });
  return next(tx, project, bookAfter, `redo ${edit}`, [...project.undoStack, revision], project.redoStack.slice(0, -1));
}

async function next(
  tx: EntityManager,
  project: LockedProject,
  book: Book,
  edit: string,
  undoStack: number[],
  redoStack: number[],
): Promise<{ book: Book; edit: string }> {
  tx.assign(project, { bookRevision: project.bookRevision + 1, undoStack, redoStack });
  // Rows neither stack names can never be reached again.
  const kept = [...undoStack, ...redoStack];
  await tx.nativeDelete(BookEdit, kept.length ? { project, revision: { $nin: kept } } : { project });
  return { book, edit };
}
