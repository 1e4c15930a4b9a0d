/**
 * Whether a soak's memory samples reached a plateau. Warm-up (JIT code, ORM metadata, prepared
 * statements, bounded caches, socket and pool buffers reaching their working size) grows memory
 * early and then stops; a leak grows it in proportion to the traffic, which is constant during the
 * soak, so it keeps its slope to the end. The rule therefore ignores the first half and fails when
 * the least-squares slope of the last half exceeds a bound, in percent of the last half's mean per
 * hour, for RSS (the process's footprint, what the OOM killer sees) and for V8's heap total.
 *
 * Heap total rather than heap used: the service exposes no forced GC, so heap used is a sawtooth
 * (on a two-hour soak it swung 100-190 MiB from one minute to the next), and even its floor, the
 * lowest sample of each block of five, left a slope whose standard error was as large as the
 * bound. Heap total is what V8 keeps reserved, sized from what survived the last collections: a
 * leak of the live heap raises it, and it moves a few MiB where heap used moves tens. The floor of
 * heap used is still reported, with its standard error, as information.
 */
export interface MemorySample {
  /** Seconds since the driven traffic started. */
  t: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
}

interface SeriesTrend {
  /** Means of the second and of the last quarter of the points. */
  secondQuarterMeanMiB: number;
  lastQuarterMeanMiB: number;
  /** Least-squares slope over the last half, in MiB per hour and in percent of its mean per hour, with its standard error. */
  lastHalfSlopeMiBPerHour: number;
  lastHalfSlopePercentPerHour: number;
  lastHalfSlopeStandardErrorPercentPerHour: number;
}

export interface PlateauVerdict {
  judged: boolean;
  plateau: boolean;
  /** Why it was not judged (too few samples), or what grew too fast. */
  reason: string;
  rss?: SeriesTrend;
  heapTotal?: SeriesTrend;
  /** Not judged: too noisy without a forced GC (see above). */
  heapUsedFloor?: SeriesTrend;
}

const HEAP_FLOOR_BLOCK = 5;
/** Fewer samples than this under load and the slope of the last half means nothing. */
const MIN_SAMPLES = 16;

const MiB = 1024 * 1024;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const tenth = (value: number) => Math.round(value * 10) / 10;

/** Least-squares slope of y over t (units of y per unit of t) and its standard error. */
function slope(points: { t: number; y: number }[]): { slope: number; standardError: number } {
  const tMean = mean(points.map((p) => p.t));
  const yMean = mean(points.map((p) => p.y));
  let numerator = 0;
  let denominator = 0;
  for (const p of points) {
    numerator += (p.t - tMean) * (p.y - yMean);
    denominator += (p.t - tMean) ** 2;
  }
  if (denominator === 0) return { slope: 0, standardError: 0 };
  const b = numerator / denominator;
  const residuals = points.reduce((sum, p) => sum + (p.y - yMean - b * (p.t - tMean)) ** 2, 0);
  return { slope: b, standardError: points.length > 2 ? Math.sqrt(residuals / (points.length - 2) / denominator) : 0 };
}

function trend(points: { t: number; y: number }[]): SeriesTrend {
  const quarter = Math.max(1, Math.floor(points.length / 4));
  const lastHalf = points.slice(Math.floor(points.length / 2));
  const fit = slope(lastHalf);
  const lastHalfMean = mean(lastHalf.map((p) => p.y));
  return {
    secondQuarterMeanMiB: tenth(mean(points.slice(quarter, 2 * quarter).map((p) => p.y)) / MiB),
    lastQuarterMeanMiB: tenth(mean(points.slice(points.length - quarter).map((p) => p.y)) / MiB),
    lastHalfSlopeMiBPerHour: tenth((fit.slope * 3600) / MiB),
    lastHalfSlopePercentPerHour: tenth(((fit.slope * 3600) / lastHalfMean) * 100),
    lastHalfSlopeStandardErrorPercentPerHour: tenth(((fit.standardError * 3600) / lastHalfMean) * 100),
  };
}

/** Judges samples taken while the traffic was driven, in the order taken. */
export function judgePlateau(samples: MemorySample[], maxPercentPerHour: number): PlateauVerdict {
  if (samples.length < MIN_SAMPLES) {
    return {
      judged: false,
      plateau: true,
      reason: `not judged: ${samples.length} samples under load, at least ${MIN_SAMPLES} needed (a longer SOAK_SECONDS or a shorter SOAK_SAMPLE_SECONDS)`,
    };
  }
  const rss = trend(samples.map((s) => ({ t: s.t, y: s.rssBytes })));
  const heapTotal = trend(samples.map((s) => ({ t: s.t, y: s.heapTotalBytes })));
  const floors: { t: number; y: number }[] = [];
  for (let i = 0; i + HEAP_FLOOR_BLOCK <= samples.length; i += HEAP_FLOOR_BLOCK) {
    const lowest = samples.slice(i, i + HEAP_FLOOR_BLOCK).reduce((a, b) => (b.heapUsedBytes < a.heapUsedBytes ? b : a));
    floors.push({ t: lowest.t, y: lowest.heapUsedBytes });
  }
  const grew = [
    rss.lastHalfSlopePercentPerHour > maxPercentPerHour ? 'RSS' : '',
    heapTotal.lastHalfSlopePercentPerHour > maxPercentPerHour ? 'heap total' : '',
  ].filter(Boolean);
  return {
    judged: true,
    plateau: grew.length === 0,
    reason:
      grew.length === 0
        ? `plateau: over the last half RSS and heap total grew at most ${maxPercentPerHour}% per hour`
        : `no plateau: ${grew.join(' and ')} grew faster than ${maxPercentPerHour}% per hour over the last half`,
    rss,
    heapTotal,
    heapUsedFloor: trend(floors),
  };
}
