import os from 'node:os';
import sharp from 'sharp';

/**
 * libvips keeps the results of recent operations (by default up to 50 MB and 100 operations) in
 * case the same operation runs again. Our image work never repeats one: every photo is decoded,
 * analysed and resized once per step, and a print page is composed once. The cache only holds
 * memory the process then never gives back, so it is off.
 *
 * libvips also gives each operation a thread per core by default, so image work would take every
 * core from the requests beside it, while a render with half the cores takes as long (its JPEG
 * codecs are single-threaded; docs/performance.md). Renders have their own process, which keeps
 * the same limit; the API keeps it for the builds' image work.
 */
export function limitImageProcessing(): void {
  sharp.cache(false);
  sharp.concurrency(Math.max(1, Math.floor(os.availableParallelism() / 2)));
}
