import sharp from 'sharp';

/**
 * libvips keeps the results of recent operations (by default up to 50 MB and 100 operations) in
 * case the same operation runs again. Our image work never repeats one: every photo is decoded,
 * analysed and resized once per step, and a print page is composed once. The cache only holds
 * memory the process then never gives back, so it is off.
 */
export function releaseImageCaches(): void {
  sharp.cache(false);
}
