import { describe, expect, it } from 'vitest';
import { judgePlateau, type MemorySample } from './memory-plateau';

const MiB = 1024 * 1024;
/**
 * Two hours sampled every minute. Heap used is a GC sawtooth of 0-90 MiB above the live heap (the
 * service has no forced GC); heap total is V8's reservation, 1.5 times the live heap; RSS moves
 * by ±15 MiB from one minute to the next, as it did on the two-hour soak.
 */
const twoHours = (rssMiB: (hour: number) => number, liveHeapMiB: (hour: number) => number): MemorySample[] =>
  Array.from({ length: 120 }, (_, minute) => ({
    t: minute * 60,
    rssBytes: (rssMiB(minute / 60) + ((minute * 11) % 31) - 15) * MiB,
    heapUsedBytes: (liveHeapMiB(minute / 60) + ((minute * 37) % 91)) * MiB,
    heapTotalBytes: (1.5 * liveHeapMiB(minute / 60) + ((minute * 5) % 7)) * MiB,
  }));
const warmUp = (from: number, to: number) => (hour: number) => from + (to - from) * Math.min(1, hour / 0.75);

describe('the soak memory plateau rule', () => {
  it('passes a service whose caches fill during the first half and then stay', () => {
    const verdict = judgePlateau(twoHours(warmUp(250, 405), warmUp(80, 110)), 5);
    expect(verdict).toMatchObject({ judged: true, plateau: true });
  });

  it('fails the growth the 20-minute soak showed, kept up for two hours (221 -> 248 MiB RSS in 20 minutes)', () => {
    const verdict = judgePlateau(
      twoHours(
        (hour) => 221 + 81 * hour,
        (hour) => 78 + 42 * hour,
      ),
      5,
    );
    expect(verdict).toMatchObject({ judged: true, plateau: false });
    expect(verdict.reason).toContain('RSS and heap total');
  });

  it('fails a slow leak of the live heap that RSS does not show yet (15 MiB an hour on 110)', () => {
    const verdict = judgePlateau(
      twoHours(
        () => 405,
        (hour) => 110 + 15 * hour,
      ),
      5,
    );
    expect(verdict).toMatchObject({ judged: true, plateau: false });
    expect(verdict.reason).toContain('heap total');
    expect(verdict.reason).not.toContain('RSS');
  });

  it('does not judge a run too short to tell, and says so', () => {
    const verdict = judgePlateau(
      twoHours(
        () => 250,
        () => 90,
      ).slice(0, 5),
      5,
    );
    expect(verdict).toMatchObject({ judged: false, plateau: true });
    expect(verdict.reason).toMatch(/not judged/);
  });
});
