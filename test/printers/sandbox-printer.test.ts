import { describe, expect, it } from 'vitest';
import { MAX_SANDBOX_PARCELS, sandboxParcels } from '../../src/printers/sandbox-printer';

describe('sandbox parcels', () => {
  it('makes one parcel per 10 copies, the same for every replay of the job', () => {
    expect(sandboxParcels('job-1', 1)).toHaveLength(1);
    expect(sandboxParcels('job-1', 25)).toHaveLength(3);
    expect(sandboxParcels('job-1', 25)).toEqual(sandboxParcels('job-1', 25));
  });

  // Issue 39: a line of 100,000,000 copies made 10,000,000 parcels and the process died of heap
  // exhaustion, again on every restart as the flow resumed. A row holding such a number (written
  // before the bound) still makes a bounded list.
  it.each([1_000_000, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY, Number.NaN])(
    `makes at most ${MAX_SANDBOX_PARCELS} parcels for %d copies`,
    (quantity) => {
      const parcels = sandboxParcels('job-2', quantity);
      expect(parcels.length).toBeGreaterThanOrEqual(1);
      expect(parcels.length).toBeLessThanOrEqual(MAX_SANDBOX_PARCELS);
    },
  );
});
