import type { TestService } from './harness';
import { post, request } from './http';
import { waitFor } from './wait';

/** A valid `/v2/print` body for one project, with totals that add up (EUR, 2 decimals). */
export function printBody(
  orderId: string,
  projectId: string,
  overrides: { colorCorrection?: boolean; quantity?: number } = {},
) {
  return {
    orderId,
    projects: [
      {
        id: projectId,
        lineItemTotal: 34.99,
        quantity: overrides.quantity ?? 1,
        metadata: { colorCorrection: overrides.colorCorrection ?? false },
      },
    ],
    payment: {
      grandTotal: 37.99,
      coupon: { value: 2, code: 'SUMMER' },
      method: 'stripe',
      reference: `pay-${orderId}`,
      shipping: { method: 'standard', cost: 5 },
    },
    user: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      telephone: '+49 30 1234567',
      address: { line1: 'Unter den Linden 1', postcode: '10117', city: 'Berlin', state: 'Berlin', countryIso2: 'DE' },
    },
  };
}

/** A copy of `value` (a body, an input) with `change` applied to it. */
export function changed<T>(value: T, change: (copy: any) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

/** Generates a project and waits until its book is built. */
export async function editableProject(
  api: TestService,
  auth: Record<string, string>,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await post(api.url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, ...body }, auth);
  if (response.status !== 200) throw new Error(`generate failed: ${JSON.stringify(response.body)}`);
  const id = new URL(response.body.url).searchParams.get('id')!;
  await waitFor(
    async () =>
      (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
      'editable',
    60_000,
    `${id} editable`,
  );
  return id;
}
