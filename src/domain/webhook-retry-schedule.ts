/**
 * When an event delivery (order and project events, to the shop's endpoint or a project's callback)
 * is attempted again after a failed attempt: Svix's published schedule (https://docs.svix.com/retries:
 * immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure), so a receiver
 * that is down for a day still gets every event. Each wait is stretched or shortened by up to
 * EVENT_RETRY_JITTER so deliveries that failed together do not all come back at the same second.
 * The campaign webhook keeps the API's own 3 retries (webhook-delivery-status.ts).
 */
export const EVENT_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** Retries after the first attempt: one per entry of the schedule. */
export const EVENT_RETRIES = EVENT_RETRY_DELAYS_MS.length;

/** Each wait is its scheduled length times a factor in [1 - jitter, 1 + jitter). */
export const EVENT_RETRY_JITTER = 0.1;

/**
 * The wait before retry `retry` (1-based) of one delivery, times `scale` (1 in production;
 * WEBHOOK_RETRY_SCALE lets a test pass a day in seconds). The jitter is a hash of the delivery and
 * the retry, not a random draw: a flow is replayed after a restart and must wait the same time.
 */
export function eventRetryDelayMs(deliveryId: string, retry: number, scale = 1): number {
  const base = EVENT_RETRY_DELAYS_MS[retry - 1];
  if (base === undefined) throw new RangeError(`retry must be from 1 to ${EVENT_RETRIES}`);
  const factor = 1 + EVENT_RETRY_JITTER * (2 * unitHash(`${deliveryId}:${retry}`) - 1);
  return Math.round(base * factor * scale);
}

/** A number in [0, 1) from a string (32-bit FNV-1a): the same string, the same number, on any engine. */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}
