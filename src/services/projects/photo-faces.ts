import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Photo, type Project } from '../../db/entities';
import type { FaceBox } from '../../domain/face-box';
import type { FileStore } from '../../storage/file-store';
import type { FaceFinding } from './face-finding';
import { ACROSS_TENANTS } from '../../db/tenant-filter';

/** What a pass over photos without faces did. */
export interface MissingFacesReport {
  /** Analysed photos whose faces were unknown. */
  checked: number;
  /** Of them, photos now known to show faces (at least one box). */
  withFaces: number;
  /** Of them, photos now known to show none. */
  withoutFaces: number;
  /** Of them, photos the detector failed on: still unknown (null), tried again next time. */
  unknown: number;
}

/**
 * The faces of photos for their automatic crops (domain/slot-crop.ts). A photo analysed before faces
 * were looked for (or whose detection did not run) has `faces` null; when it is next needed for a
 * crop that reaches paper (a print line's render, a proof, the build's cover preview), or when an
 * operator runs `npm run cli -- photo faces`, its faces are detected once from its stored analysis
 * thumbnail (what the intake detects on) and stored; `[]` once the detector ran and found none.
 * Only unknown faces are written (`faces IS NULL` in the update), so two passes at once store one answer.
 */
export class PhotoFaces {
  constructor(
    private readonly files: FileStore,
    private readonly finding: FaceFinding,
  ) {}

  /** The faces of a project's photos that show some, by photo id; unknown ones are detected first. */
  async ofProject(em: EntityManager, project: Project): Promise<Map<string, FaceBox[]>> {
    await this.fillMissing(em, { project });
    const faces = new Map<string, FaceBox[]>();
    // Past the identity map: the faces just stored were written by a native update.
    const found = await em.find(
      Photo,
      { project, faces: { $ne: null } },
      { fields: ['id', 'faces'], disableIdentityMap: true },
    );
    for (const photo of found) if (photo.faces?.length) faces.set(photo.id, photo.faces);
    return faces;
  }

  /** The faces of one photo (null while unknown), detected first when unknown. */
  async ofPhoto(em: EntityManager, photoId: string): Promise<FaceBox[] | null> {
    await this.fillMissing(em, { id: photoId });
    const photo = await em.findOne(Photo, { id: photoId }, { fields: ['id', 'faces'], disableIdentityMap: true });
    return photo?.faces ?? null;
  }

  /**
   * Detects and stores the faces of analysed photos (status idle, with a thumbnail) matching `where`
   * whose faces are unknown, at most `limit` of them, oldest first; of every shop with
   * `acrossTenants` (the operator's CLI), else of `em`'s tenant.
   */
  async fillMissing(
    em: EntityManager,
    where: FilterQuery<Photo>,
    options: { limit?: number; acrossTenants?: boolean } = {},
  ): Promise<MissingFacesReport> {
    const report: MissingFacesReport = { checked: 0, withFaces: 0, withoutFaces: 0, unknown: 0 };
    const scope = options.acrossTenants ? ACROSS_TENANTS : {};
    const photos = await em.find(
      Photo,
      { $and: [where, { status: 'idle', faces: null, thumbnailKey: { $ne: null } }] },
      {
        fields: ['id', 'thumbnailKey'],
        disableIdentityMap: true,
        orderBy: { createdAt: 'asc', id: 'asc' },
        ...(options.limit ? { limit: options.limit } : {}),
        ...scope,
      },
    );
    for (const photo of photos) {
      report.checked++;
      // A thumbnail gone from the store leaves the faces unknown: the crop is then the plain one, where
      // a failed read would have failed the print, proof or preview that asked.
      const thumbnail = (await this.files.exists(photo.thumbnailKey!))
        ? await this.files.get(photo.thumbnailKey!)
        : null;
      const faces = thumbnail ? await this.finding.facesOf(photo.id, thumbnail) : null;
      if (faces === null) {
        report.unknown++;
        continue;
      }
      // The photo was found under `em`'s tenant scope; only an unknown answer is replaced.
      await em
        .getConnection()
        .execute('UPDATE photos SET faces = ?::jsonb WHERE id = ? AND faces IS NULL', [
          JSON.stringify(faces),
          photo.id,
        ]);
      if (faces.length) report.withFaces++;
      else report.withoutFaces++;
    }
    return report;
  }
}
