import type { Binding } from '../../domain/print-production';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { Photo, Project } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import type { Book } from '../../domain/book';
import {
  ConflictError,
  NotFoundError,
  RevisionConflictError,
  UnauthenticatedError,
  ValidationError,
} from '../../domain/errors';
import { BOOK_SUBJECT } from '../../domain/status-subjects';
import { recordStatusChange } from '../../events/status-event-log';
import { recordEdit, redoEdit, undoEdit } from './book-history';
import type { BookState } from '../projects/project-batch-reads';
import type { PrintWarning } from '../../domain/print-warning';
import { dpiWarning, effectiveDpi } from '../../imaging/print/effective-dpi';
import { MM_PER_INCH } from '../../imaging/print/print-geometry';
import { isProjectId } from '../../domain/ids';
import { effectiveStatus } from '../projects/project-view';
import type { EditorSession, RequestContext } from '../context';
import { placePhotoAt, type PageBounds, type PhotoTarget } from './book-edits';
import { requirePlaceablePhoto } from './placeable-photo';
import { evenPageBounds } from '../projects/book-builder';
import type { EditorLinks } from '../projects/editor-links';

/** What the editor needs to draw a page at its true size and keep edits within the product. */
/** The editor's reads and edits hand the transports project and photo entities; they name them through here. */
export type { Project, Photo };

/** An edit as the client asked for it: its name (the mutation's) and the revision it was made on. */
export interface BookEditRequest {
  name: string;
  /** The book revision the client saw; absent: applied to the latest book, whatever it is. */
  expectedRevision?: number | null;
  /** How the client named the project id (REST `id`, GraphQL `projectId`), for a not-found answer. */
  idPath?: string;
}

export interface PageFormat extends PageBounds {
  widthMm: number;
  heightMm: number;
  /** The product's binding: only a layflat book takes spreads (domain/book-spreads.ts). */
  binding?: Binding;
}

/** One answer for an unknown project, a wrong key, a transfer, a delete and an expiry: none tells that a project exists. */
const NOT_OPEN = 'the editor link is not valid: unknown, ended by a transfer to another owner, deleted or expired';

/**
 * The editor's use cases. The editor link carries the project id and the project's editor key
 * (EditorLinks): a session opened with both reaches that one project and nothing else of its
 * client (src/graphql/editor-scope.ts refuses every other operation), until the project's owner
 * changes, it is deleted or it expires (docs/api.md, Editor URL).
 */
export class EditorService {
  /** `em` is the root EntityManager; the session lookup crosses tenants by design, in its own fork. */
  constructor(
    private readonly em: EntityManager,
    private readonly links: EditorLinks,
  ) {}

  async openSession(projectId: unknown, editorKey: unknown): Promise<EditorSession> {
    if (!isProjectId(projectId)) {
      throw new UnauthenticatedError(
        'X-Editor-Project must carry the project id of the editor link',
        'X-Editor-Project',
      );
    }
    if (typeof editorKey !== 'string' || !editorKey) {
      throw new UnauthenticatedError('X-Editor-Key must carry the editorKey of the editor link', 'X-Editor-Key');
    }
    const project = await this.em
      .fork()
      .findOne(Project, { id: projectId }, { ...ACROSS_TENANTS, populate: ['client', 'owner'] });
    if (!project || !isOpen(project) || !this.links.opens(project, editorKey))
      throw new UnauthenticatedError(NOT_OPEN, 'X-Editor-Key');
    return {
      tenant: { clientId: project.client.id, clientName: project.client.name, env: project.env },
      projectId,
      owner: project.owner.externalId,
      expiresAt: project.expiresAt.getTime(),
      seed: project.editorKeySeed,
    };
  }

  /**
   * Whether a session opened earlier (a graphql-ws socket) may still read its project: the same
   * key (no transfer since), not deleted, not expired. An ordered project stays readable.
   */
  async stillOpen(session: EditorSession): Promise<boolean> {
    const project = await this.em
      .fork()
      .findOne(
        Project,
        { id: session.projectId },
        { ...ACROSS_TENANTS, fields: ['status', 'expiresAt', 'editorKeySeed'] },
      );
    return !!project && isOpen(project) && project.editorKeySeed === session.seed;
  }

  /**
   * The origins of the shops that may frame this project's editor: its client's `shopOrigins`. An
   * unknown or malformed id has none; the page then loads, and its session is refused as usual.
   */
  async shopOriginsOf(projectId: unknown): Promise<string[]> {
    if (!isProjectId(projectId)) return [];
    const project = await this.em
      .fork()
      .findOne(Project, { id: projectId }, { ...ACROSS_TENANTS, populate: ['client'], fields: ['client.shopOrigins'] });
    return project?.client.shopOrigins ?? [];
  }

  /** Takes the project by id: GraphQL hands over an entity or the lean row of `project(id)`. */
  async format(ctx: RequestContext, project: { id: string }): Promise<PageFormat> {
    const { product } = await ctx.em.findOneOrFail(
      Project,
      { id: project.id },
      { populate: ['product'], fields: ['product'] },
    );
    const { specifications } = product;
    return {
      widthMm: specifications.format.widthMm,
      heightMm: specifications.format.heightMm,
      binding: specifications.production?.binding,
      ...evenPageBounds(specifications.min.pages, specifications.max.pages),
    };
  }

  /** Photos placed where they would print soft or pixelated (same thresholds as the print renderer). */
  async printWarnings(ctx: RequestContext, project: { id: string }, book: Book | null): Promise<PrintWarning[]> {
    if (!book) return [];
    const format = await this.format(ctx, project);
    const photos = new Map((await ctx.em.find(Photo, { project: project.id })).map((photo) => [photo.id, photo]));
    const warnings: PrintWarning[] = [];
    for (const page of book.pages) {
      for (const slot of page.photos) {
        const photo = photos.get(slot.photoId);
        if (!photo?.width || !photo.height) continue;
        const dpi = effectiveDpi(
          photo as { width: number; height: number },
          {
            width: (slot.width * format.widthMm) / MM_PER_INCH,
            height: (slot.height * format.heightMm) / MM_PER_INCH,
          },
          slot.crop?.zoom,
        );
        const message = dpiWarning(dpi);
        if (message) warnings.push({ page: page.number, photoId: photo.id, effectiveDpi: Math.round(dpi), message });
      }
    }
    return warnings;
  }

  /**
   * Applies one edit to the project's book, under a row lock so two tabs cannot lose each other's
   * edits. Only an editable project's book changes: while it builds or after it was ordered the book
   * belongs to the flows. Whether it may change is decided on the locked row, at write time: a
   * session opened before the project expired, was ordered or deleted (a long-lived socket, or an
   * edit racing an order) cannot write after it. With `expectedRevision` (the revision the client
   * saw), an edit made on an older book is refused (REVISION_CONFLICT) instead of overwriting the
   * edit that came first. Each edit makes the next revision, is kept for Undo (book-history.ts) and
   * is told to the other editors of the book (`bookRevised`).
   */
  async edit(
    ctx: RequestContext,
    projectId: string,
    edit: BookEditRequest,
    change: (book: Book, bounds: PageFormat) => Book,
  ): Promise<Project> {
    return this.revise(ctx, projectId, edit, async (project, tx) => {
      const book = change(project.book, await this.format({ ...ctx, em: tx }, project));
      return recordEdit(tx, project, edit.name, book);
    });
  }

  /**
   * Puts one of the project's own photos (unused, or an upload by its id) into a slot or onto a page
   * (placePhotoAt); the photo is checked inside the edit's lock, so one deleted meanwhile is refused.
   */
  placePhoto(
    ctx: RequestContext,
    projectId: string,
    edit: BookEditRequest,
    photoId: unknown,
    target: PhotoTarget,
  ): Promise<Project> {
    return this.revise(ctx, projectId, edit, async (project, tx) => {
      const id = await requirePlaceablePhoto(tx, project.id, photoId);
      return recordEdit(tx, project, edit.name, placePhotoAt(project.book, id, target));
    });
  }

  /** Takes back the latest edit not yet undone: a revision of its own (REST and GraphQL `undo`). */
  undo(ctx: RequestContext, projectId: string, request: Omit<BookEditRequest, 'name'>): Promise<Project> {
    return this.revise(ctx, projectId, request, (project, tx) => undoEdit(tx, project));
  }

  /** Applies again the latest edit undone, unless an edit came since: a revision of its own. */
  redo(ctx: RequestContext, projectId: string, request: Omit<BookEditRequest, 'name'>): Promise<Project> {
    return this.revise(ctx, projectId, request, (project, tx) => redoEdit(tx, project));
  }

  /** The project's book with its revision, for REST (`GET /v2/project/book`). */
  async bookOf(ctx: RequestContext, projectId: string): Promise<BookState & { projectId: string }> {
    inScope(ctx, projectId, 'id');
    const project = await ctx.em.findOne(
      Project,
      { id: projectId },
      { fields: ['id', 'book', 'bookRevision', 'undoStack', 'redoStack'] },
    );
    if (!project) throw new NotFoundError('project', projectId, 'id');
    return {
      projectId,
      book: project.book ?? null,
      revision: project.bookRevision,
      canUndo: project.undoStack.length > 0,
      canRedo: project.redoStack.length > 0,
    };
  }

  private async revise(
    ctx: RequestContext,
    projectId: string,
    { expectedRevision, idPath = 'projectId' }: Omit<BookEditRequest, 'name'>,
    change: (project: Project & { book: Book }, tx: EntityManager) => Promise<{ book: Book; edit: string }>,
  ): Promise<Project> {
    if (expectedRevision != null && (!Number.isInteger(expectedRevision) || expectedRevision < 0))
      throw ValidationError.field('expectedRevision', 'must be a revision number (an integer from 0)');
    inScope(ctx, projectId, idPath);
    return ctx.em.transactional(async (tx) => {
      // Read the book under the lock: an edit is always applied to the latest saved book.
      const project = await tx.findOne(
        Project,
        { id: projectId },
        {
          populate: ['book', 'undoStack', 'redoStack'],
          lockMode: LockMode.PESSIMISTIC_WRITE,
          refresh: true,
        },
      );
      if (!project) throw new NotFoundError('project', projectId, idPath);
      refuseClosedForEdits(project);
      if (expectedRevision != null && expectedRevision !== project.bookRevision)
        throw new RevisionConflictError(expectedRevision, project.bookRevision);
      const { book, edit } = await change(project, tx);
      tx.assign(project, { book, title: book.cover.title, updatedAt: new Date() });
      await recordStatusChange(tx, ctx.tenant, {
        subjectType: BOOK_SUBJECT,
        subjectId: project.id,
        status: 'revised',
        detail: { revision: project.bookRevision, edit },
      });
      // What the answer's Project fields read (its owner and market), loaded after the lock: a
      // FOR UPDATE query cannot take the nullable side of the joins that populating would add.
      await tx.populate(project, ['owner', 'market']);
      return project;
    });
  }
}

/** An editor session reaches its own project only: another id is not found, as another client's is. */
function inScope(ctx: RequestContext, projectId: string, idPath: string): void {
  if (ctx.projectScope && ctx.projectScope !== projectId) throw new NotFoundError('project', projectId, idPath);
}

/** The link lives as long as its project: deleted or past PROJECT_TTL it opens nothing. */
function isOpen(project: Pick<Project, 'status' | 'expiresAt'>): boolean {
  const status = effectiveStatus(project);
  return status !== 'deleted' && status !== 'expired';
}

/**
 * Why a project's book may not change now, as a 409 the editor can explain: deleted, ordered and
 * expired are final for the editor link (docs/api.md, Editor); created and building are not yet.
 * Photo uploads are refused alike (src/services/uploads).
 */
export function refuseClosedForEdits(project: Project, now = Date.now()): asserts project is Project & { book: Book } {
  const status = effectiveStatus(project, now);
  if (status === 'deleted')
    throw new ConflictError('PROJECT_DELETED', `project ${project.id} was deleted; its book can no longer be edited`);
  if (project.ordered || status === 'ordering')
    throw new ConflictError('PROJECT_ORDERED', `project ${project.id} was ordered; its book can no longer be edited`);
  if (status === 'expired')
    throw new ConflictError('PROJECT_EXPIRED', `project ${project.id} has expired; its book can no longer be edited`);
  if (status !== 'editable' || !project.book) {
    throw new ConflictError(
      'PROJECT_NOT_EDITABLE',
      `project ${project.id} is ${status}; its book can be edited once it is editable`,
    );
  }
}
