import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services/app-services';
import type { CaptionFont } from '../../domain/book';
import { setPageCaptions, setSlotCrop, unplacePhoto, type PhotoTarget } from '../../services/editor/book-edits';
import type { Project } from '../../services/editor/editor-service';
import { contextOf } from '../request-context';
import { authenticateBeforeTheBody } from '../authenticate-request';
import {
  bookSchema,
  captionsSchema,
  cropSchema,
  placePhotoSchema,
  redoSchema,
  undoSchema,
  unplacePhotoSchema,
} from './schemas';

/**
 * The REST twins of the editor's book edits (docs/api.md, Editor), so a shop's own app can build
 * its own editor: the shop's `X-Service`, or an editor link's `X-Editor-Project` and `X-Editor-Key`
 * for that one project (the service refuses another project as not found).
 */
export const editorRoutes: FastifyPluginAsyncTypebox<{ services: AppServices; bodyLimit: number }> = async (
  app,
  { services, bodyLimit },
) => {
  const { editor } = services;
  authenticateBeforeTheBody(app, services.authenticator, { editor: true, bodyLimit });

  app.get('/v2/project/book', { schema: bookSchema }, async (request) =>
    editor.bookOf(contextOf(request, services.em), request.query.id),
  );

  app.post('/v2/project/book/crop', { schema: cropSchema }, async (request) => {
    const { id, page, slot, crop, expectedRevision } = request.body;
    const ctx = contextOf(request, services.em);
    return answer(
      await editor.edit(ctx, id, { name: 'setSlotCrop', expectedRevision, idPath: 'id' }, (book) =>
        setSlotCrop(book, { page, slot }, crop),
      ),
    );
  });

  app.post('/v2/project/book/captions', { schema: captionsSchema }, async (request) => {
    const { id, page, captions, expectedRevision } = request.body;
    const ctx = contextOf(request, services.em);
    return answer(
      await editor.edit(ctx, id, { name: 'setPageCaptions', expectedRevision, idPath: 'id' }, (book) =>
        setPageCaptions(
          book,
          page,
          captions.map((caption) => ({ ...caption, font: caption.font as CaptionFont })),
        ),
      ),
    );
  });

  app.post('/v2/project/book/place', { schema: placePhotoSchema }, async (request) => {
    const { id, photoId, slot, toPage, expectedRevision } = request.body;
    const ctx = contextOf(request, services.em);
    return answer(
      await editor.placePhoto(ctx, id, { name: 'placePhoto', expectedRevision, idPath: 'id' }, photoId, {
        slot,
        toPage,
      } as PhotoTarget),
    );
  });

  app.post('/v2/project/book/unplace', { schema: unplacePhotoSchema }, async (request) => {
    const { id, slot, expectedRevision } = request.body;
    const ctx = contextOf(request, services.em);
    return answer(
      await editor.edit(ctx, id, { name: 'unplacePhoto', expectedRevision, idPath: 'id' }, (book) =>
        unplacePhoto(book, slot),
      ),
    );
  });

  app.post('/v2/project/book/undo', { schema: undoSchema }, async (request) => {
    const { id, expectedRevision } = request.body;
    return answer(await editor.undo(contextOf(request, services.em), id, { expectedRevision, idPath: 'id' }));
  });

  app.post('/v2/project/book/redo', { schema: redoSchema }, async (request) => {
    const { id, expectedRevision } = request.body;
    return answer(await editor.redo(contextOf(request, services.em), id, { expectedRevision, idPath: 'id' }));
  });
};

/** The revision an edit, undo or redo made. */
function answer(project: Project) {
  return {
    projectId: project.id,
    revision: project.bookRevision,
    canUndo: project.undoStack.length > 0,
    canRedo: project.redoStack.length > 0,
  };
}
