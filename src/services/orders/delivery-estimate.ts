/** A product's production lead time (`specifications.psp.leadTime`) in business days. */
export function leadDaysOf(leadTime: { value: number; unit: string }): number {
  const unit = leadTime.unit.trim().toLowerCase();
  if (unit.startsWith('hour')) return Math.ceil(leadTime.value / 24);
  if (unit.startsWith('week')) return Math.ceil(leadTime.value * 5);
  return Math.ceil(leadTime.value);
}

export interface DeliveryEstimate {
  /** ISO dates (YYYY-MM-DD, UTC). */
  earliest: string;
  latest: string;
}

/**
 * When a parcel arrives if ordered on `from`: production lead time, then transit, both counted in
 * business days (Monday to Friday; an order placed at the weekend starts on Monday). Public
 * holidays differ by country and carrier and are not counted: the range is an estimate.
 */
export function estimateDelivery(
  from: Date,
  leadDays: number,
  transitDays: { min: number; max: number },
): DeliveryEstimate {
  const shipped = addBusinessDays(from, leadDays);
  return {
    earliest: isoDate(addBusinessDays(shipped, transitDays.min)),
    latest: isoDate(addBusinessDays(shipped, transitDays.max)),
  };
}

function addBusinessDays(from: Date, days: number): Date {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  const isWeekend = () => date.getUTCDay() === 0 || date.getUTCDay() === 6;
  while (isWeekend()) date.setUTCDate(date.getUTCDate() + 1);
  for (let left = days; left > 0; ) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (!isWeekend()) left -= 1;
  }
  return date;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
