/**
 * Whether a soak's memory samples reached a plateau. The service exposes no forced GC, so V8's
 * heap-used is a sawtooth; its floor (the lowest sample of each block of HEAP_FLOOR_BLOCK samples,
 * what survived the collections in that block) stands for the live heap. Warm-up (JIT code, ORM
 * metadata, prepared statements, bounded caches, socket buffers reaching their working size) grows
 * memory early and then stops; a leak grows it in proportion to the traffic, which is constant
 * during the soak, so it keeps the same slope to the end. The rule therefore ignores the first half
 * and fails when the least-squares slope of the last half exceeds a bound, in percent of the last
 * half's mean per hour, for RSS and for the heap floor alike.
 */
export interface MemorySample {
  /** Seconds since the driven traffic started (negative before it). */
  t: number;
  rssBytes: number;
  heapUsedBytes: number;
}

export interface SeriesVerdict {
  /** Mean of the second and of the last quarter of the samples, and its growth. */
  secondQuarterMeanMiB: number;
  lastQuarterMeanMiB: number;
  /** Least-squares slope over the last half, in MiB per hour and in percent of its mean per hour. */
  lastHalfSlopeMiBPerHour: number;
  lastHalfSlopePercentPerHour: number;
  plateau: boolean;
}

export interface PlateauVerdict {
  judged: boolean;
  /** Why it was not judged (too few samples), or what failed. */
  reason: string;
  rss?: SeriesVerdict;
  heapFloor?: SeriesVerdict;
  plateau: boolean;
}

export const HEAP_FLOOR_BLOCK = 5;
/** Fewer samples than this over the driven traffic and the slope of the last half means nothing. */
export const MIN_SAMPLES = 16;

const MiB = 1024 * 1024;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Least-squares slope of y over t (units of y per unit of t). */
export function slope(points: { t: number; y: number }[]): number {
  const tMean = mean(points.map((p) => p.t));
  const yMean = mean(points.map((p) => p.y));
  let numerator = 0;
  let denominator = 0;
  for (const p of points) {
    numerator += (p.t - tMean) * (p.y - yMean);
    denominator += (p.t - tMean) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

function judgeSeries(points: { t: number; y: number }[], maxPercentPerHour: number): SeriesVerdict {
  const quarter = Math.floor(points.length / 4);
  const lastHalf = points.slice(Math.floor(points.length / 2));
  const perHour = slope(lastHalf) * 3600;
  const lastHalfMean = mean(lastHalf.map((p) => p.y));
  const percent = (perHour / lastHalfMean) * 100;
  const tenth = (value: number) => Math.round(value * 10) / 10;
  return {
    secondQuarterMeanMiB: tenth(mean(points.slice(quarter, 2 * quarter).map((p) => p.y)) / MiB),
    lastQuarterMeanMiB: tenth(mean(points.slice(points.length - quarter).map((p) => p.y)) / MiB),
    lastHalfSlopeMiBPerHour: tenth(perHour / MiB),
    lastHalfSlopePercentPerHour: tenth(percent),
    plateau: percent <= maxPercentPerHour,
  };
}

/** Judges the samples taken while the traffic was driven (t >= 0). */
export function judgePlateau(samples: MemorySample[], maxPercentPerHour: number): PlateauVerdict {
  const driven = samples.filter((s) => s.t >= 0);
  if (driven.length < MIN_SAMPLES) {
    return { judged: false, plateau: true, reason: `not judged: ${driven.length} samples under load, at least ${MIN_SAMPLES} needed (a longer SOAK_SECONDS or a shorter SOAK_SAMPLE_SECONDS)` };
  }
  const rss = judgeSeries(
    driven.map((s) => ({ t: s.t, y: s.rssBytes })),
    maxPercentPerHour,
  );
  const floors: { t: number; y: number }[] = [];
  for (let i = 0; i + HEAP_FLOOR_BLOCK <= driven.length; i += HEAP_FLOOR_BLOCK) {
    const block = driven.slice(i, i + HEAP_FLOOR_BLOCK);
    const lowest = block.reduce((a, b) => (b.heapUsedBytes < a.heapUsedBytes ? b : a));
    floors.push({ t: lowest.t, y: lowest.heapUsedBytes });
  }
  const heapFloor = judgeSeries(floors, maxPercentPerHour);
  const failed = [rss.plateau ? '' : 'RSS', heapFloor.plateau ? '' : 'heap floor'].filter(Boolean);
  return {
    judged: true,
    plateau: failed.length === 0,
    reason:
      failed.length === 0
        ? `plateau: the last half grew at most ${maxPercentPerHour}% per hour`
        : `no plateau: ${failed.join(' and ')} grew faster than ${maxPercentPerHour}% per hour over the last half`,
    rss,
    heapFloor,
  };
}
