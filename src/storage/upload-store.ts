import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore as TusFileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/utils';
import type { Config } from '../config';

/**
 * Where the bytes of unfinished photo uploads live (docs/api.md, Uploads): the tus project's own
 * stores, `@tus/file-store` under DATA_DIR/uploads by default and `@tus/s3-store` in FILE_STORE's
 * bucket (under its prefix, `uploads/`) when FILE_STORE is S3. An upload's id in the URL is ours (the
 * photo's id); `storeId` is the name the store keeps it under.
 */
export interface UploadStore {
  /** The tus data store `@tus/server` writes through. */
  readonly datastore: ReadableDataStore;
  storeId(uploadId: string): string;
  uploadId(storeId: string): string;
  /** A finished upload's bytes, to copy into the file store. */
  read(uploadId: string): Promise<Readable>;
  /** Removes an upload's bytes and its record; an upload already gone is no error. */
  remove(uploadId: string): Promise<void>;
}

/** Both stores read a finished upload back (`read` is theirs, not DataStore's). */
type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

/** tus extensions we offer: no deferred length (every limit is checked on the declared length before a byte is taken). */
const OFFERED_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

export function createUploadStore(config: Pick<Config, 'dataDir' | 'fileStore' | 'durations'>): UploadStore {
  const expirationPeriodInMilliseconds = config.durations.uploadExpiryMs;
  const location = config.fileStore;
  let datastore: ReadableDataStore;
  let prefix = '';
  if (location.kind === 's3') {
    prefix = location.prefix ? `${location.prefix}/uploads/` : 'uploads/';
    datastore = new S3Store({
      expirationPeriodInMilliseconds,
      s3ClientConfig: {
        bucket: location.bucket,
        region: location.region,
        forcePathStyle: location.forcePathStyle,
        ...(location.endpoint ? { endpoint: location.endpoint } : {}),
        ...(location.credentials ? { credentials: location.credentials } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
  } else {
    datastore = new TusFileStore({ directory: path.join(config.dataDir, 'uploads'), expirationPeriodInMilliseconds });
  }
  datastore.extensions = datastore.extensions.filter((extension) => OFFERED_EXTENSIONS.includes(extension));
  const storeId = (uploadId: string) => `${prefix}${uploadId}`;
  return {
    datastore,
    storeId,
    uploadId: (id) => (id.startsWith(prefix) ? id.slice(prefix.length) : id),
    read: async (uploadId) => datastore.read(storeId(uploadId)),
    async remove(uploadId) {
      try {
        await datastore.remove(storeId(uploadId));
      } catch (error) {
        // Both stores answer a missing upload with tus's ERRORS.FILE_NOT_FOUND ({status_code: 404}).
        if ((error as { status_code?: number }).status_code !== 404) throw error;
      }
    },
  };
}
