import os from 'node:os';
import sharp from 'sharp';

/**
 * libvips keeps the results of recent operations (by default up to 50 MB and 100 operations) in
 * case the same operation runs again. Our image work never repeats one: every photo is decoded,
 * analysed and resized once per step, and a print page is composed once. The cache only holds
 * memory the process then never gives back, so it is off.
 *
 * libvips also gives each operation a thread per core by default, so one print render took every
 * core of the API process and status requests fell to 0.56 of their idle rate; with half the cores
 * per operation they keep 0.65 while the render takes as long (README, Performance).
 */
export function limitImageProcessing(): void {
  sharp.cache(false);
  sharp.concurrency(Math.max(1, Math.floor(os.availableParallelism() / 2)));
}
