import { Type } from 'typebox';
import { CAPTION_FONTS } from '../../domain/book';
import { PROJECT_ID_MAX_LENGTH, PROJECT_ID_PREFIX } from '../../domain/ids';
import { MAX_ZOOM } from '../../domain/slot-crop';
import { CAPTION_SIZE_PT, MAX_CAPTION_LENGTH, MAX_CAPTIONS } from '../../services/editor/book-edits';
import { problemResponses, type OpenApiTag } from '../shared-schemas';

/** The book edits of the editor, for a shop's own app: request and response schemas of each route. */

export const EDITOR_TAGS = {
  editor: {
    name: 'editor',
    description:
      "The editor's book edits, for a shop's own editor: authenticated by the X-Service header, or by an editor link's X-Editor-Project and X-Editor-Key for that one project",
  },
} as const satisfies Record<string, OpenApiTag>;

const security: { [scheme: string]: string[] }[] = [{ XService: [] }, { XEditorProject: [], XEditorKey: [] }];

const ProjectId = Type.String({
  pattern: `^${PROJECT_ID_PREFIX}`,
  maxLength: PROJECT_ID_MAX_LENGTH,
  description: `Project id, starts with ${PROJECT_ID_PREFIX}`,
});
const ExpectedRevision = Type.Optional(
  Type.Integer({
    minimum: 0,
    description:
      "The book revision the edit was made on: refused with 409 REVISION_CONFLICT (and the book's currentRevision) when another edit came first. Without it the edit applies to the latest book",
  }),
);

/** What an edit, undo or redo answers: the revision it made. */
const Revision = Type.Object({
  projectId: Type.String(),
  revision: Type.Integer({ description: "The book's revision now" }),
  canUndo: Type.Boolean(),
  canRedo: Type.Boolean(),
});

const Crop = Type.Object(
  {
    x: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "0..1 of the photo's width: the point the slot is centred on",
    }),
    y: Type.Number({ minimum: 0, maximum: 1, description: "0..1 of the photo's height" }),
    zoom: Type.Number({
      minimum: 1,
      maximum: MAX_ZOOM,
      description: `1 (the photo just covers the slot) to ${MAX_ZOOM}`,
    }),
  },
  { additionalProperties: false },
);

const Caption = Type.Object(
  {
    text: Type.String({ maxLength: MAX_CAPTION_LENGTH }),
    font: Type.Union(
      CAPTION_FONTS.map((font) => Type.Literal(font)),
      { description: 'A font that ships with the project' },
    ),
    sizePt: Type.Number({ minimum: CAPTION_SIZE_PT.min, maximum: CAPTION_SIZE_PT.max }),
    x: Type.Number({ minimum: 0, exclusiveMaximum: 1, description: "Left edge, 0..1 of the page's trim width" }),
    y: Type.Number({ minimum: 0, exclusiveMaximum: 1, description: "Top edge, 0..1 of the page's trim height" }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'x + width at most 1; lines wrap to it' }),
  },
  { additionalProperties: false },
);

export const bookSchema = {
  operationId: 'getProjectBook',
  tags: [EDITOR_TAGS.editor.name],
  summary: "A project's book and its revision",
  description:
    'The book as the editor edits it (cover, pages with slots, crops and captions), its revision, and whether Undo and Redo have something to do. GraphQL: Project.pages, cover, bookRevision, canUndo, canRedo.',
  security,
  querystring: Type.Object({ id: ProjectId }),
  response: {
    200: Type.Object({
      ...Revision.properties,
      book: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description: 'null until the book is built',
      }),
    }),
    ...problemResponses(400, 401, 404),
  },
} as const;

export const cropSchema = {
  operationId: 'setSlotCrop',
  tags: [EDITOR_TAGS.editor.name],
  summary: 'Crop, zoom and pan the photo of a slot',
  description:
    'Stored in the book and printed exactly so. crop null goes back to the automatic crop. Preflight warns when the zoom takes the photo below its DPI floor. GraphQL: setSlotCrop.',
  security,
  body: Type.Object(
    {
      id: ProjectId,
      page: Type.Integer({ minimum: 1, description: 'Interior page, from 1' }),
      slot: Type.Integer({ minimum: 0, description: 'Slot on the page, from 0' }),
      crop: Type.Union([Crop, Type.Null()]),
      expectedRevision: ExpectedRevision,
    },
    { additionalProperties: false },
  ),
  response: { 200: Revision, ...problemResponses(400, 401, 404, 409) },
} as const;

export const captionsSchema = {
  operationId: 'setPageCaptions',
  tags: [EDITOR_TAGS.editor.name],
  summary: 'Replace the text boxes of a page',
  description: `At most ${MAX_CAPTIONS} per page; an empty list removes them. Printed in interior.pdf. GraphQL: setPageCaptions.`,
  security,
  body: Type.Object(
    {
      id: ProjectId,
      page: Type.Integer({ minimum: 1 }),
      captions: Type.Array(Caption, { maxItems: MAX_CAPTIONS }),
      expectedRevision: ExpectedRevision,
    },
    { additionalProperties: false },
  ),
  response: { 200: Revision, ...problemResponses(400, 401, 404, 409) },
} as const;

const historySchema = (operationId: 'undoBookEdit' | 'redoBookEdit', summary: string, description: string) =>
  ({
    operationId,
    tags: [EDITOR_TAGS.editor.name],
    summary,
    description,
    security,
    body: Type.Object({ id: ProjectId, expectedRevision: ExpectedRevision }, { additionalProperties: false }),
    response: { 200: Revision, ...problemResponses(400, 401, 404, 409) },
  }) as const;

export const undoSchema = historySchema(
  'undoBookEdit',
  'Undo the latest edit',
  'Takes back the latest edit not yet undone, from any device (the history is kept on the server); a revision itself. 409 NOTHING_TO_UNDO when there is none. GraphQL: undo.',
);

export const redoSchema = historySchema(
  'redoBookEdit',
  'Redo the latest undone edit',
  'Applies again the latest undone edit; an edit after the undo ends what can be redone (409 NOTHING_TO_REDO). GraphQL: redo.',
);

const SlotRef = Type.Object(
  {
    page: Type.Integer({ minimum: 1, description: 'Interior page, from 1' }),
    slot: Type.Integer({ minimum: 0, description: 'Slot on the page, from 0' }),
  },
  { additionalProperties: false },
);

export const placePhotoSchema = {
  operationId: 'placePhoto',
  tags: [EDITOR_TAGS.editor.name],
  summary: "Put one of the project's photos into the book",
  description:
    "By the photo's id (an upload's id is its photo's): into `slot` (the photo there goes back to the project's unused photos, the slot's crop to automatic) or into a free slot of page `toPage`; give one of the two. A photo already in the book moves there instead (swapped with the slot's photo, or moved to the page). Refused: a photo that is not this project's (404 on photoId), one still uploading or being analysed (422 PHOTO_NOT_READY), one that failed (422 PHOTO_FAILED), a slot or page that does not exist (400 NO_SUCH_SLOT, NO_SUCH_PAGE), a full page (400 PAGE_FULL). Undoable. GraphQL: placePhoto.",
  security,
  body: Type.Object(
    {
      id: ProjectId,
      photoId: Type.String({ maxLength: 100, description: "A photo of this project: its id, or its upload's id" }),
      slot: Type.Optional(SlotRef),
      toPage: Type.Optional(
        Type.Integer({ minimum: 1, description: 'A page with a free slot (a blank page takes one photo)' }),
      ),
      expectedRevision: ExpectedRevision,
    },
    { additionalProperties: false },
  ),
  response: { 200: Revision, ...problemResponses(400, 401, 404, 409, 422) },
} as const;

export const unplacePhotoSchema = {
  operationId: 'unplacePhoto',
  tags: [EDITOR_TAGS.editor.name],
  summary: 'Take the photo of a slot out of the book',
  description:
    "The photo stays among the project's photos, unused; the page closes the gap, or becomes blank when it was its only photo. Undoable. GraphQL: unplacePhoto.",
  security,
  body: Type.Object(
    { id: ProjectId, slot: SlotRef, expectedRevision: ExpectedRevision },
    { additionalProperties: false },
  ),
  response: { 200: Revision, ...problemResponses(400, 401, 404, 409) },
} as const;
