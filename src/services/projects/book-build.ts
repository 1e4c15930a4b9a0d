import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { ProjectStatus } from '../../domain/project-status';
import type { FileStore } from '../../storage/file-store';
import { withScratchDir } from '../../storage/scratch-dir';
import { renderCoverPreview } from '../../imaging/cover-preview';
import { isHeic } from '../../imaging/heic';
import { timeRender } from '../../metrics/work-metrics';
import { buildBook } from './book-builder';
import { curatePhotos } from './photo-curation';
import { finishProjectBuild, readBuildSource, startProjectBuild } from './build-steps';
import { previewKey, projectPrefix } from './storage-keys';
import { coverSafeArea } from '../../domain/print-safe-area';
import { emForPhoto } from '../tenancy/row-tenant-scope';
import type { FaceFinding } from './face-finding';
import { PhotoFaces } from './photo-faces';

export interface BookBuildDeps {
  orm: MikroORM;
  files: FileStore;
  log: Logger;
  config: { durations: Pick<Config['durations'], 'buildDownloadDeadlineMs'> };
  /** Finds the cover photo's faces when they are unknown (photo-faces.ts). */
  faces: FaceFinding;
}

/**
 * Photos a build analyses at once, as a window: each photo analysed starts the next, so a HEIC (most
 * of a second of decoding in one of the per-core decoder threads) holds up no other photo, as a
 * batch waiting for its slowest did. Larger than the cores so that a decoder thread always has the
 * next photo; small enough that ten builds in flight keep a bounded queue of working copies.
 */
const ANALYSIS_WINDOW = 8;

/** Preview size: long side in pixels, enough for a list thumbnail and the editor's start screen. */
const PREVIEW_LONG_SIDE = 800;

export interface BuildStart {
  photoIds: string[];
  downloadDeadline: number;
  downloadsFirst?: boolean;
  /** Photos analysed at once, in batches (runs recorded between `downloadsFirst` and `analysisWindow`: 8; before it, 4). */
  analysisBatch?: number;
  /** Photos analysed at once, each finished one starting the next (runs recorded before it: `analysisBatch`). */
  analysisWindow?: number;
}

/**
 * A project build's start and end around its photos (photo-intake.ts): created -> building, and
 * the book laid out from the usable photos with its cover preview -> editable. Both are idempotent:
 * a project already past the step is answered as it stands.
 */
export class BookBuild {
  private readonly faces: PhotoFaces;

  constructor(private readonly deps: BookBuildDeps) {
    this.faces = new PhotoFaces(deps.files, deps.faces);
  }

  /**
   * created -> building; returns the photos still to fetch and analyse, and when their
   * downloads must have ended (the build's deadline, recorded with the flow step's result).
   * `downloadsFirst` tells the flow to fetch every photo before analysing any (runs recorded
   * before it existed fetch and analyse batch by batch, as they recorded).
   */
  async start(projectId: string): Promise<BuildStart> {
    const { photoIds } = await startProjectBuild(this.deps.orm.em.getConnection(), projectId);
    return {
      photoIds,
      downloadDeadline: Date.now() + this.deps.config.durations.buildDownloadDeadlineMs,
      downloadsFirst: true,
      analysisWindow: ANALYSIS_WINDOW,
    };
  }

  /** Lays out the book from the usable photos, renders the cover preview; -> editable. */
  async build(projectId: string): Promise<{ status: ProjectStatus; pages: number }> {
    const { orm, files, log } = this.deps;
    const db = orm.em.getConnection();
    const project = await readBuildSource(db, projectId);
    if (!project) return { status: 'deleted', pages: 0 };
    if (project.status !== 'building') return { status: project.status, pages: project.pages };
    const bookPhotos = project.usablePhotos.filter((p) => !p.assetId);
    const coverAsset = project.usablePhotos.find((p) => p.assetId === 'coverPhoto');
    const { specifications } = project;
    // Curation is the smartbook's: a fastbook keeps every photo and records no decision.
    const curation = project.layoutType === 'smartbook' ? curatePhotos(bookPhotos) : new Map();
    const book = buildBook({
      layoutType: project.layoutType,
      photos: bookPhotos,
      // An order that priced the rebuilt book at a page count gets exactly that many pages.
      minPages: project.heldPageCount ?? specifications.min.pages,
      maxPages: project.heldPageCount ?? specifications.max.pages,
      texts: project.custom,
      coverPhotoId: coverAsset?.id,
      fallbackTitle: project.sku,
      curation,
      format: specifications.format,
      binding: specifications.production?.binding,
    });

    const coverPhoto = project.usablePhotos.find((p) => p.id === book.cover.photoId);
    const { widthMm, heightMm } = specifications.format;
    const scale = PREVIEW_LONG_SIDE / Math.max(widthMm, heightMm);
    // The cover keeps its faces inside the front's safe area, as its print does (cover-sheet.ts).
    const coverEm = coverPhoto && (await emForPhoto(orm, coverPhoto.id));
    const faces = coverPhoto && coverEm ? await this.faces.ofPhoto(coverEm, coverPhoto.id) : null;
    const preview = await withScratchDir(async (scratch) => {
      const original = coverPhoto?.originalKey;
      let photo = original ? { file: await files.localFile(original, scratch) } : undefined;
      // sharp has no HEVC: a HEIC cover is previewed from its 512 px thumbnail rather than decoded again
      // (seconds of libheif) on the way to editable.
      if (photo && coverPhoto?.thumbnailKey && (await isHeic(photo)))
        photo = { file: await files.localFile(coverPhoto.thumbnailKey, scratch) };
      return timeRender('cover_preview', () =>
        renderCoverPreview({
          widthPx: Math.round(widthMm * scale),
          heightPx: Math.round(heightMm * scale),
          photo,
          title: book.cover.title,
          subtitle: book.cover.subtitle,
          faces: { boxes: faces, safe: coverSafeArea(specifications.format) },
        }),
      );
    });
    const key = previewKey(projectPrefix(project.clientId, project.env, project.storageKey));
    await files.put(key, preview);

    const status = await finishProjectBuild(db, projectId, { book, previewKey: key, curation });
    if (status === 'editable')
      log.info({ projectId, pages: book.pages.length, photos: bookPhotos.length }, 'project built');
    return { status, pages: book.pages.length };
  }
}
