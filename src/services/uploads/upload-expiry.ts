import type { Logger } from 'pino';
import { type PeriodicPass, startPeriodicPass } from '../../logger/periodic-pass';
import type { UploadService } from './upload-service';

/** How often abandoned uploads are looked for: half of UPLOAD_EXPIRY, between 1 s and 5 min. */
export function uploadExpiryIntervalMs(uploadExpiryMs: number): number {
  return Math.min(5 * 60_000, Math.max(1_000, Math.floor(uploadExpiryMs / 2)));
}

/**
 * The periodic pass that removes uploads open past UPLOAD_EXPIRY, their bytes and their photo rows
 * (UploadService.expireAbandoned), in every process that serves clients: the one pass at a time of
 * this process, as the outbox relay runs its own.
 */
export function startUploadExpiry(uploads: UploadService, intervalMs: number, log: Logger): PeriodicPass {
  return startPeriodicPass({
    intervalMs,
    atStart: false,
    log,
    failure: 'the upload expiry pass failed; it runs again at its next interval',
    async pass() {
      const removed = await uploads.expireAbandoned();
      if (removed > 0) log.info({ removed }, 'removed abandoned photo uploads');
    },
  });
}
