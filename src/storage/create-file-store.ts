import path from 'node:path';
import type { Config } from '../config';
import type { FileStore } from './file-store';
import { fileUrlSecret } from './file-url-signer';
import { FilesystemFileStore } from './filesystem-file-store';
import { S3FileStore } from './s3-file-store';

/**
 * The process's file store: the S3 bucket of FILE_STORE=s3://bucket/prefix, else DATA_DIR/files.
 * URLs are signed with the key every process of the service shares.
 */
export function createFileStore(
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'fileUrlSecret' | 'durations' | 'fileStore'>,
  pepper: string,
): FileStore {
  const urls = {
    secret: fileUrlSecret(config.fileUrlSecret, pepper),
    ttlMs: config.durations.fileUrlTtlMs,
    previewTtlMs: config.durations.previewUrlTtlMs,
  };
  return config.fileStore.kind === 's3'
    ? new S3FileStore(config.fileStore, config.publicUrl, urls)
    : new FilesystemFileStore(path.join(config.dataDir, 'files'), config.publicUrl, urls);
}
