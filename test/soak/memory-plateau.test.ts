import { describe, expect, it } from 'vitest';
import { judgePlateau, type MemorySample } from './memory-plateau';

const MiB = 1024 * 1024;
// Two hours sampled every minute, with a GC sawtooth on the heap (the service has no forced GC).
const twoHours = (rssMiB: (hour: number) => number, heapMiB: (hour: number) => number): MemorySample[] =>
  Array.from({ length: 120 }, (_, minute) => ({
    t: minute * 60,
    rssBytes: rssMiB(minute / 60) * MiB,
    heapUsedBytes: (heapMiB(minute / 60) + ((minute * 7) % 13)) * MiB,
  }));

describe('the soak memory plateau rule', () => {
  it('passes a service whose caches fill during the first half and then stay', () => {
    const warmUp = (from: number, to: number) => (hour: number) => from + (to - from) * Math.min(1, hour / 0.75);
    const verdict = judgePlateau(twoHours(warmUp(220, 260), warmUp(78, 95)), 5);
    expect(verdict).toMatchObject({ judged: true, plateau: true });
  });

  it('fails the growth the 20-minute soak showed, kept up for two hours (221 -> 248 MiB RSS in 20 minutes)', () => {
    const verdict = judgePlateau(twoHours((hour) => 221 + 81 * hour, (hour) => 78 + 42 * hour), 5);
    expect(verdict).toMatchObject({ judged: true, plateau: false });
    expect(verdict.reason).toContain('RSS and heap floor');
  });

  it('fails a slow leak of the heap alone, hidden in the sawtooth (15 MiB an hour on 100)', () => {
    const verdict = judgePlateau(twoHours(() => 250, (hour) => 100 + 15 * hour), 5);
    expect(verdict).toMatchObject({ judged: true, plateau: false });
    expect(verdict.reason).toContain('heap floor');
    expect(verdict.reason).not.toContain('RSS');
  });

  it('does not judge a run too short to tell, and says so', () => {
    const verdict = judgePlateau(twoHours(() => 250, () => 90).slice(0, 5), 5);
    expect(verdict).toMatchObject({ judged: false, plateau: true });
    expect(verdict.reason).toMatch(/not judged/);
  });
});
