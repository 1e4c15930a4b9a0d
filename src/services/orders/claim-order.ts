import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderLine } from '../../db/entities';
import type { RequestContext } from '../context';
import { ValidationError } from '../../domain/errors';
import { canonicalJson } from '../../domain/canonical-json';
import { PRINT_FULFILMENT_FLOW } from '../../domain/flows';
import type { OrderClaim } from '../../domain/order-claim';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { isHttpUrl } from '../projects/photo-input';
import { randomBase62 } from '../projects/project-ids';
import { schemaCheck } from '../schema-check';
import { claimOf, type ClaimContext } from './claim-availability';
import { ClaimInput } from './claim-input';
import { actionNotAvailable, currentSequences, lockLines } from './order-actions';
import { recordOrderEvent, recordOrderLineStatus } from './order-events';

/** A remake's order id: ours, not the shop's, so it can never take an id the shop will use. */
const REMAKE_ID_PREFIX = 'rmk_';

/**
 * The claim input's one declaration (./claim-input.ts) checks every transport's claim: REST's
 * schema refused a bad body already, GraphQL's types carry no limits.
 */
const checkClaimInput = schemaCheck(ClaimInput);

/** The claim as sent, checked: the schema, then each photo a real http(s) URL with a host. */
export function checkClaim(input: unknown): ClaimInput {
  const claim = checkClaimInput(input);
  claim.photos?.forEach((url, i) => {
    if (!isHttpUrl(url)) throw ValidationError.field(`photos[${i}]`, 'must be an absolute http(s) URL');
  });
  return claim;
}

/** The project ids already claimed on `order`, with the orderId of each one's remake. */
export function remadeLinesOf(remakes: Iterable<Pick<Order, 'orderId' | 'claim'>>): Map<string, string> {
  const remade = new Map<string, string>();
  for (const remake of remakes)
    for (const projectId of remake.claim?.projectIds ?? [])
      if (!remade.has(projectId)) remade.set(projectId, remake.orderId);
  return remade;
}

/**
 * docs/api.md, Claims and remakes. Under the original's line locks (so two claims of one line are
 * one remake and a 409), each claimed line is checked again against the claim window; then the
 * remake is written in one transaction: a new order at no charge, to the original's recipient and
 * shipping level, whose lines carry the original lines' print files (the same FileStore keys: the
 * same bytes, nothing rendered again), each at `paid` with its status event, and the events
 * `order.claim.created` (the original) and `order.remake.created` (the remake). Its fulfilment
 * flows start after the commit, as a print's do. Answers the remake.
 */
export async function claimOrder(
  ctx: RequestContext,
  deps: Pick<ProjectServiceDeps, 'engine' | 'config'>,
  original: Order,
  claimed: OrderLine[],
  claim: ClaimInput & { context: Omit<ClaimContext, 'remade'> },
): Promise<string> {
  const wanted = new Set(claimed.map((l) => l.id));
  const written = await ctx.em.fork().transactional(async (tx) => {
    const locked = (await lockLines(tx, original)).filter((l) => wanted.has(l.id));
    const remakes = await tx.find(Order, { remakeOf: original.id });
    const verdict = claimOf(locked, { ...claim.context, remade: remadeLinesOf(remakes) });
    if ('reason' in verdict) throw actionNotAvailable('claim', original.orderId, verdict.reason);
    const withoutFiles = locked.find((l) => !l.pdfKey || !l.manifestKey || l.pageCount == null);
    if (withoutFiles)
      throw actionNotAvailable(
        'claim',
        original.orderId,
        `project ${withoutFiles.project.id} has no print files to print again`,
      );
    return writeRemake(tx, locked[0].order, locked, {
      reason: claim.reason,
      ...(claim.note !== undefined ? { note: claim.note } : {}),
      photos: claim.photos ?? [],
      projectIds: locked.map((l) => l.project.id),
      createdAt: claim.context.now.toISOString(),
    });
  });
  for (const lineId of written.lineIds) {
    await deps.engine.start(
      PRINT_FULFILMENT_FLOW,
      {
        lineId,
        assetsTimeoutMs: deps.config.durations.orderStatusTimeoutMs,
        sandboxStepMs: deps.config.durations.sandboxPrinterStepMs,
      },
      { tenant: ctx.tenant },
    );
  }
  return written.orderId;
}

/** The remake order and its lines, with their status events and the claim's two events. */
async function writeRemake(
  tx: EntityManager,
  original: Order,
  lines: OrderLine[],
  claim: OrderClaim,
): Promise<{ orderId: string; lineIds: string[] }> {
  const orderId = `${REMAKE_ID_PREFIX}${randomBase62(20)}`;
  const remake = tx.create(Order, {
    client: original.client,
    env: original.env,
    orderId,
    requestDigest: createHash('sha256')
      .update(canonicalJson({ remakeOf: original.orderId, claim }))
      .digest('hex'),
    market: original.market,
    currency: original.currency,
    email: original.email ?? null,
    firstName: original.firstName ?? null,
    lastName: original.lastName ?? null,
    telephone: original.telephone ?? null,
    shippingAddress: original.shippingAddress,
    // A remake costs the shop nothing: every amount is 0 (docs/api.md, Claims and remakes).
    subTotal: 0,
    shippingCost: 0,
    shippingMethod: original.shippingMethod ?? null,
    shippingLevel: original.shippingLevel ?? null,
    couponValue: 0,
    grandTotal: 0,
    paymentStatus: 'Payment Complete',
    confirmation: `Order ${orderId}: remake of order ${original.orderId} (${claim.reason}), projects ${claim.projectIds.join(', ')} accepted for printing`,
    remakeOf: original,
    claim,
  });
  const made: { line: OrderLine; sequence: number }[] = [];
  for (const [position, line] of lines.entries()) {
    const remakeLine = tx.create(OrderLine, {
      order: remake,
      project: line.project,
      position,
      quantity: line.quantity,
      lineItemTotal: 0,
      metadata: line.metadata,
      sku: line.sku,
      psp: line.psp,
      title: line.title,
      coverPreviewKey: line.coverPreviewKey ?? null,
      status: 'paid',
      // The original's print files, by key: the printer gets the bytes it printed the first time.
      pageCount: line.pageCount,
      pdfKey: line.pdfKey,
      coverPdfKey: line.coverPdfKey ?? null,
      manifestKey: line.manifestKey,
      warnings: line.warnings,
    });
    await tx.flush();
    const { sequence } = await recordOrderLineStatus(tx, remakeLine);
    made.push({ line: remakeLine, sequence });
  }
  const sequences = await currentSequences(tx, original, lines);
  await recordOrderEvent(
    tx,
    original,
    'order.claim.created',
    lines.map((line) => ({ line, sequence: sequences.get(line.id) ?? 0 })),
    { claim, remakeOrderId: orderId },
  );
  await recordOrderEvent(tx, remake, 'order.remake.created', made, { remakeOf: original.orderId, claim });
  return { orderId, lineIds: made.map((m) => m.line.id) };
}
