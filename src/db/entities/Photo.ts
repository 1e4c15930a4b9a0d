import { randomUUID } from 'node:crypto';
import { DecimalType, Entity, Enum, Filter, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Project } from './Project';
import { PHOTO_STATUSES, type PhotoStatus } from '../../domain/project-status';
import { ownedThrough } from '../tenant-filter';
import type { PhotoCuration } from '../../domain/curation';
import type { FaceBox } from '../../domain/face-box';

export interface PhotoProblem {
  /** UNREACHABLE, HTTP_STATUS, NOT_AN_IMAGE, TOO_LARGE, BLOCKED_ADDRESS, TIMEOUT... */
  code: string;
  message: string;
}

/** One photo of a project: where it came from, what we stored, what we learnt from it. */
@Filter(ownedThrough('project', 'tenant'))
@Entity({ tableName: 'photos' })
@Index({ properties: ['project', 'position'] })
export class Photo {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  /** The client's own id of the photo (`{id, url}` form), if given. */
  @Property({ type: 'string', length: 200, nullable: true })
  clientPhotoId?: string | null;

  @Property({ type: 'text' })
  url!: string;

  /** Set when the photo fills a template asset from `custom` (e.g. `coverPhoto`) rather than the book. */
  @Property({ type: 'string', length: 100, nullable: true })
  assetId?: string | null;

  /** Order in which the client listed the photos. */
  @Property({ type: 'integer' })
  position!: number;

  @Enum({ items: () => PHOTO_STATUSES, nativeEnumName: 'photo_status' })
  status: PhotoStatus & Opt = 'uploading';

  @Property({ type: 'json', nullable: true })
  problem?: PhotoProblem | null;

  @Property({ type: 'string', length: 300, nullable: true })
  originalKey?: string | null;

  @Property({ type: 'string', length: 300, nullable: true })
  thumbnailKey?: string | null;

  @Property({ type: 'string', length: 20, nullable: true })
  format?: string | null;

  @Property({ type: 'integer', nullable: true })
  bytes?: number | null;

  /** Displayed size, after the EXIF orientation is applied. */
  @Property({ type: 'integer', nullable: true })
  width?: number | null;

  @Property({ type: 'integer', nullable: true })
  height?: number | null;

  @Property({ type: 'smallint', nullable: true })
  exifOrientation?: number | null;

  @Property({ type: 'datetime', nullable: true })
  capturedAt?: Date | null;

  @Property({ type: new DecimalType('number'), precision: 5, scale: 4, nullable: true })
  sharpness?: number | null;

  @Property({ type: new DecimalType('number'), precision: 5, scale: 4, nullable: true })
  quality?: number | null;

  /** 128-bit difference hash, 32 hex digits (imaging/photo-analysis.ts): close for copies of one shot. */
  @Property({ type: 'string', length: 32, nullable: true })
  perceptualHash?: string | null;

  /** 0..1 exposure score of the mean luminance: low for very dark or very bright photos. */
  @Property({ type: new DecimalType('number'), precision: 5, scale: 4, nullable: true })
  exposure?: number | null;

  /** EXIF GPS position in degrees, when the photo has one. */
  @Property({ type: 'double', nullable: true })
  latitude?: number | null;

  @Property({ type: 'double', nullable: true })
  longitude?: number | null;

  /** The last smartbook build's decision about this photo (domain/curation.ts); null before one. */
  @Property({ type: 'json', nullable: true })
  curation?: PhotoCuration | null;
  /**
   * Faces found in the photo (imaging/faces), largest first, in 0..1 of the upright photo: what the
   * automatic crop keeps inside the safe area (domain/slot-crop.ts). `[]`: the detector ran and found
   * none; null: unknown (not analysed, analysed before faces were looked for, or the detector did not
   * run), filled in once when a crop needs them (services/projects/photo-faces.ts).
   */
  @Property({ type: 'json', nullable: true })
  faces?: FaceBox[] | null;

  /** Came from the device through `/v2/uploads` (its `url` is the upload's address), not from a URL. */
  @Property({ type: 'boolean' })
  uploaded: boolean & Opt = false;

  /** Hex SHA-256 of an uploaded photo's bytes: unique per project, the same bytes twice are one photo. */
  @Property({ type: 'string', length: 64, nullable: true })
  sha256?: string | null;

  /** While its upload is open: when the expiry pass removes it, unless its last byte came first. */
  @Property({ type: 'datetime', nullable: true })
  uploadExpiresAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
