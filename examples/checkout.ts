/**
 * A shop's checkout with @photobook/client: make a photobook from a product and the customer's
 * photos, quote it, place the print order and follow the order's events until the printer has it.
 *
 *   BASE_URL=http://localhost:4000 ACCESS_KEY=… ACCESS_SECRET=… PHOTO_URLS=https://…/1.jpg,https://…/2.jpg \
 *     npx tsx examples/checkout.ts
 *
 * Optional: SKU (default PB-HC-A4-P), PSP (local), MARKET_ID (0), COUNTRY (DE). Credentials are one
 * environment's accessKey and accessSecret (`npm run cli -- client create --name <shop> --json`).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createPhotobookClient, type ClientCredentials, type paths } from '../clients/typescript/src/index';

type Event = paths['/v2/events']['get']['responses'][200]['content']['application/json']['data'][number];

export interface CheckoutOptions {
  baseUrl: string;
  credentials: ClientCredentials;
  photoUrls: string[];
  sku?: string;
  psp?: string;
  marketId?: number;
  countryIso2?: string;
  orderId?: string;
  /** How long to wait for the book to be laid out and for the printer; default 3 minutes each. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface CheckoutResult {
  projectId: string;
  quoteId: string;
  grandTotal: number;
  currency: string;
  orderId: string;
  /** Every event of the order up to the one that says the printer has the job, in order. */
  events: Event[];
}

/** The line status at which the printer holds the job (docs/api.md, Order line statuses). */
const AT_THE_PRINTER = 'sent printjob';

export async function checkout(options: CheckoutOptions): Promise<CheckoutResult> {
  const { rest } = createPhotobookClient({ baseUrl: options.baseUrl, credentials: options.credentials });
  const log = options.log ?? console.log;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const marketId = options.marketId ?? 0;
  const countryIso2 = options.countryIso2 ?? 'DE';
  const orderId = options.orderId ?? `checkout-${randomUUID()}`;

  // 1. The customer's project: the editor link comes back at once, the book is laid out meanwhile.
  const generated = await rest.POST('/v2/generate', {
    body: {
      sku: options.sku ?? 'PB-HC-A4-P',
      psp: options.psp ?? 'local',
      marketId,
      photos: options.photoUrls,
      userId: 'checkout-example',
    },
  });
  if (!generated.data) throw new Error(`generate: ${JSON.stringify(generated.error)}`);
  const projectId = new URL(generated.data.url).searchParams.get('id')!;
  log(`project ${projectId}: editor at ${generated.data.url}`);
  await until(timeoutMs, `${projectId} laid out`, async () => {
    const { data, error } = await rest.GET('/v2/project/status', { params: { query: { id: projectId } } });
    if (error) throw new Error(`project status: ${JSON.stringify(error)}`);
    if (data.status.project === 'failed') throw new Error(`project ${projectId} failed to build`);
    return data.status.project === 'editable';
  });

  // 2. What it costs and when it arrives, for the basket page.
  const quoted = await rest.POST('/v2/quote', { body: { marketId, countryIso2, lines: [{ projectId, quantity: 1 }] } });
  if (!quoted.data) throw new Error(`quote: ${JSON.stringify(quoted.error)}`);
  const quote = quoted.data;
  log(`quote ${quote.quoteId}: ${quote.grandTotal} ${quote.currency} with ${quote.shippingLevel ?? 'no'} shipping`);

  // 3. Paid: the order, held to the quote. Sending it again with the same orderId is safe.
  const printed = await rest.POST('/v2/print', {
    body: {
      orderId,
      quoteId: quote.quoteId,
      projects: quote.lines.map((line) => ({
        id: line.projectId!,
        quantity: line.quantity,
        lineItemTotal: line.lineTotal,
      })),
      payment: {
        grandTotal: quote.grandTotal,
        shipping: { cost: quote.shipping, ...(quote.shippingLevel ? { method: quote.shippingLevel } : {}) },
        method: 'card',
        reference: `pay-${orderId}`,
      },
      user: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        address: { line1: 'Unter den Linden 1', postcode: '10117', city: 'Berlin', countryIso2 },
      },
    },
  });
  if (!printed.data || !('message' in printed.data))
    throw new Error(`print: ${JSON.stringify(printed.error ?? printed.data)}`);
  log(printed.data.message);

  // 4. The order's events, caught up by polling with the last id seen (a webhook receives the same).
  const events: Event[] = [];
  await until(timeoutMs, `order ${orderId} at the printer`, async () => {
    const after = events.at(-1)?.id;
    const { data, error } = await rest.GET('/v2/events', {
      params: { query: { orderId, ...(after ? { after } : {}) } },
    });
    if (error) throw new Error(`events: ${JSON.stringify(error)}`);
    for (const event of data.data) {
      events.push(event);
      const line = lineOf(event);
      log(`${event.occurredAt} ${event.type}${line ? `: ${line.projectId} ${line.status}` : ''}`);
    }
    return events.some(
      (event) => event.type === 'order.line.status_changed' && lineOf(event)?.status === AT_THE_PRINTER,
    );
  });
  return { projectId, quoteId: quote.quoteId, grandTotal: quote.grandTotal, currency: quote.currency, orderId, events };
}

function lineOf(event: Event): { projectId: string; status: string } | undefined {
  const line = (event.data as { line?: { projectId: string; status: string } }).line;
  return line && typeof line.status === 'string' ? line : undefined;
}

async function until(timeoutMs: number, what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = (name: string) => process.env[name] ?? exitSaying(`set ${name} (see the top of examples/checkout.ts)`);
  await checkout({
    baseUrl: env('BASE_URL'),
    credentials: { accessKey: env('ACCESS_KEY'), accessSecret: env('ACCESS_SECRET') },
    photoUrls: env('PHOTO_URLS').split(',').filter(Boolean),
    sku: process.env.SKU,
    psp: process.env.PSP,
    marketId: process.env.MARKET_ID ? Number(process.env.MARKET_ID) : undefined,
    countryIso2: process.env.COUNTRY,
  }).catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}

function exitSaying(message: string): never {
  console.error(message);
  process.exit(2);
}
