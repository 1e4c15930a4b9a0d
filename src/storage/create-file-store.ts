import path from 'node:path';
import type { Config } from '../config';
import { FileStore } from './file-store';
import { fileUrlSecret } from './file-url-signer';

/** The process's file store under DATA_DIR/files, signing URLs with the key every process of the service shares. */
export function createFileStore(config: Pick<Config, 'dataDir' | 'publicUrl' | 'fileUrlSecret' | 'durations'>, pepper: string): FileStore {
  return new FileStore(path.join(config.dataDir, 'files'), config.publicUrl, {
    secret: fileUrlSecret(config.fileUrlSecret, pepper),
    ttlMs: config.durations.fileUrlTtlMs,
    previewTtlMs: config.durations.previewUrlTtlMs,
  });
}
