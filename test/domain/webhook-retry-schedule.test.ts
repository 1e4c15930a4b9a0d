import { describe, expect, it } from 'vitest';
import {
  EVENT_RETRIES,
  EVENT_RETRY_DELAYS_MS,
  EVENT_RETRY_JITTER,
  eventRetryDelayMs,
} from '../../src/domain/webhook-retry-schedule';

const HOUR = 3_600_000;
const ids = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
const total = (id: string, scale = 1) =>
  Array.from({ length: EVENT_RETRIES }, (_, i) => eventRetryDelayMs(id, i + 1, scale)).reduce((a, b) => a + b, 0);

describe('the order and project events retry schedule', () => {
  it("is Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, about 27.6 h in all", () => {
    expect(EVENT_RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(EVENT_RETRIES).toBe(7);
    const sum = EVENT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(sum / HOUR).toBeCloseTo(27.585, 2);
  });

  it('spans at least 24 hours for every delivery at scale 1, its jitter included', () => {
    for (const id of ids) expect(total(id)).toBeGreaterThanOrEqual(24 * HOUR);
    // The least the jitter can make of it, too.
    const floor = EVENT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) * (1 - EVENT_RETRY_JITTER);
    expect(floor).toBeGreaterThanOrEqual(24 * HOUR);
  });

  it('keeps each wait within ±10 % of its schedule, spread over that range, and the same on every call', () => {
    for (let retry = 1; retry <= EVENT_RETRIES; retry++) {
      const base = EVENT_RETRY_DELAYS_MS[retry - 1];
      const waits = ids.map((id) => eventRetryDelayMs(id, retry));
      for (const wait of waits) {
        expect(wait).toBeGreaterThanOrEqual(Math.floor(base * (1 - EVENT_RETRY_JITTER)));
        expect(wait).toBeLessThanOrEqual(Math.ceil(base * (1 + EVENT_RETRY_JITTER)));
      }
      // Spread: deliveries that failed together come back over the range, not at one instant.
      expect(Math.min(...waits)).toBeLessThan(base * 0.93);
      expect(Math.max(...waits)).toBeGreaterThan(base * 1.07);
      expect(new Set(waits).size).toBeGreaterThan(ids.length / 2);
      // A replayed flow waits what it waited the first time.
      expect(ids.map((id) => eventRetryDelayMs(id, retry))).toEqual(waits);
    }
  });

  it('scales every wait by WEBHOOK_RETRY_SCALE, so a test passes the day in seconds', () => {
    const id = ids[0];
    // 24 h and more at 1 are 8.64 s and more at 0.0001: a day's outage in a test of seconds.
    expect(total(id, 0.0001)).toBeGreaterThanOrEqual(24 * HOUR * 0.0001);
    expect(total(id, 0.0001)).toBeLessThan(11_000);
    for (let retry = 1; retry <= EVENT_RETRIES; retry++)
      expect(Math.abs(eventRetryDelayMs(id, retry, 0.5) - eventRetryDelayMs(id, retry) / 2)).toBeLessThanOrEqual(1);
  });

  it('has no retry 0 nor one past the schedule', () => {
    expect(() => eventRetryDelayMs(ids[0], 0)).toThrow(RangeError);
    expect(() => eventRetryDelayMs(ids[0], EVENT_RETRIES + 1)).toThrow(RangeError);
  });
});
