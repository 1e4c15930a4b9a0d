import { Type, type Static } from 'typebox';
import type { Market, Project } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';
import type { EditorLinks } from './editor-links';
import { CURATION_REASONS } from '../../domain/curation';
import { PHOTOS_STATUSES, PROJECT_STATUSES, type ProjectStatus } from '../../domain/project-status';

/**
 * The project as clients read it (docs/api.md, Project object and Project status): field names
 * and units of the original API. Each shape is declared once; REST validates, serialises and
 * documents with it, and its TypeScript type is derived from it.
 */
const ProjectFields = {
  title: Type.String(),
  preview: Type.String({ description: 'Preview image URL; empty until rendered' }),
  id: Type.String(),
  createdAt: Type.Integer({ description: 'Unix time in milliseconds' }),
  updatedAt: Type.Integer({ description: 'Unix time in milliseconds' }),
  expiresAt: Type.Integer({ description: 'Unix time in seconds' }),
  product: Type.Object({
    psp: Type.String(),
    sku: Type.String(),
    marketId: Type.Integer(),
    marketIdAlt: Type.String(),
  }),
  link: Type.String(),
};

const ProjectStatusPair = Type.Object({
  photos: Type.Enum(PHOTOS_STATUSES, { type: 'string' }),
  project: Type.Enum(PROJECT_STATUSES, { type: 'string' }),
});

/** A project in a user's list: with its status and whether it was ordered. */
export const ListedProject = Type.Object({ ...ProjectFields, status: ProjectStatusPair, ordered: Type.Boolean() });
export type ListedProject = Static<typeof ListedProject>;

/** A project as duplicate and transfer answer it: with its owner. */
export const OwnedProject = Type.Object({ ...ProjectFields, endUserId: Type.String() });
export type OwnedProject = Static<typeof OwnedProject>;

export const ProjectList = Type.Object({
  data: Type.Array(ListedProject),
  cursor: Type.Optional(Type.String({ description: 'Present when another page may exist' })),
});
export type ProjectList = Static<typeof ProjectList>;

/** A photo of the project that could not be used, and why (GraphQL: Photo.problem). */
export const FailedPhotoView = Type.Object({
  id: Type.String({ description: "The photo id (GraphQL Photo.id, the editor's photoId)" }),
  clientPhotoId: Type.Optional(Type.String({ description: 'The id the client gave with the URL, if any' })),
  url: Type.String({ description: 'The URL the photo was given with' }),
  problem: Type.Object({
    code: Type.String({
      description: 'HTTP_STATUS, DOWNLOAD_FAILED, DOWNLOAD_TIME_LIMIT, NOT_AN_IMAGE, TOO_LARGE, ...',
    }),
    message: Type.String(),
  }),
});

/** A photo and the smartbook's decision about it (GraphQL: Photo.curation). */
const CuratedPhotoView = Type.Object({
  id: Type.String({ description: "The photo id (GraphQL Photo.id, the editor's photoId)" }),
  clientPhotoId: Type.Optional(Type.String({ description: 'The id the client gave with the URL, if any' })),
  url: Type.String({ description: 'The URL the photo was given with' }),
  curation: Type.Object({
    kept: Type.Boolean({ description: 'In the book as built' }),
    reason: Type.Enum(CURATION_REASONS, {
      type: 'string',
      description:
        'duplicate, burst, blurry, exposure or kept; blurry or exposure with kept true: in the book, demoted',
    }),
    groupId: Type.Union([Type.String(), Type.Null()], {
      description: 'The photo kept for its group of copies or its burst; null when it stands alone',
    }),
    score: Type.Number({ description: '0..1 importance: quality, halved when blurred or badly exposed' }),
  }),
});

/** The status record; `status.order`, `user` and `tracking` appear once the project was sent to print. */
export const ProjectStatusRecord = Type.Object({
  id: Type.String(),
  status: Type.Object({ ...ProjectStatusPair.properties, order: Type.Optional(Type.String()) }),
  user: Type.Optional(
    Type.Object({
      userId: Type.Optional(Type.String()),
      email: Type.Optional(Type.String()),
      actualEmail: Type.Optional(Type.String()),
      firstName: Type.Optional(Type.String()),
      lastName: Type.Optional(Type.String()),
      phone: Type.Optional(Type.String()),
      shippingAddress: Type.Optional(
        Type.Object({
          line1: Type.Optional(Type.String()),
          city: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          postal: Type.Optional(Type.String()),
          country: Type.Optional(Type.String()),
          isoCode2: Type.Optional(Type.String()),
          isoCode3: Type.Optional(Type.String()),
        }),
      ),
    }),
  ),
  tracking: Type.Optional(Type.String()),
  failedPhotos: Type.Optional(
    Type.Array(FailedPhotoView, {
      description:
        "Present when a photo of the project failed: each one, in the client's order, with its reason (as GraphQL Photo.problem)",
    }),
  ),
  curatedPhotos: Type.Optional(
    Type.Array(CuratedPhotoView, {
      description:
        "Present once a smartbook was built: each photo the build decided about, in the client's order, kept or left out and why (as GraphQL Photo.curation)",
    }),
  ),
});
export type ProjectStatusRecord = Static<typeof ProjectStatusRecord>;

/** What the list shape reads: an entity, or a row of the lean listing query. */
export type ListedProjectSource = Pick<
  Project,
  | 'id'
  | 'editorKeySeed'
  | 'title'
  | 'sku'
  | 'psp'
  | 'previewKey'
  | 'status'
  | 'photosStatus'
  | 'ordered'
  | 'createdAt'
  | 'updatedAt'
  | 'expiresAt'
> & { market: Pick<Market, 'marketId' | 'marketIdAlt'> };

/** A project as reads without the ORM give it: what GraphQL's Project type and the owned shape read. Entities are one too. */
export type ProjectRecord = ListedProjectSource & { owner: { externalId: string } };

/** A project past its expiry reports `expired` until it is ordered or deleted. */
export function effectiveStatus(project: Pick<Project, 'status' | 'expiresAt'>, now = Date.now()): ProjectStatus {
  if (
    (project.status === 'created' ||
      project.status === 'building' ||
      project.status === 'failed' ||
      project.status === 'editable') &&
    project.expiresAt.getTime() <= now
  ) {
    return 'expired';
  }
  return project.status;
}

export function listedProjectView(project: ListedProjectSource, files: FileStore, links: EditorLinks): ListedProject {
  return {
    ...commonView(project, files, links),
    status: { photos: project.photosStatus, project: effectiveStatus(project) },
    ordered: project.ordered,
  };
}

export function ownedProjectView(project: ProjectRecord, files: FileStore, links: EditorLinks): OwnedProject {
  return { ...commonView(project, files, links), endUserId: project.owner.externalId };
}

function commonView(project: ListedProjectSource, files: FileStore, links: EditorLinks) {
  return {
    title: project.title ?? project.sku,
    preview: project.previewKey ? files.previewUrl(project.previewKey) : '',
    id: project.id,
    createdAt: project.createdAt.getTime(),
    updatedAt: project.updatedAt.getTime(),
    expiresAt: Math.floor(project.expiresAt.getTime() / 1000),
    product: {
      psp: project.psp,
      sku: project.sku,
      marketId: project.market.marketId,
      marketIdAlt: project.market.marketIdAlt,
    },
    link: links.link(project),
  };
}
