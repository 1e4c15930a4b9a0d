import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { Order, OrderLine, Photo, Project, type Market, type Product } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, DomainError, NotFoundError, RejectedError, ValidationError } from '../../domain/errors';
import { resolveMarket, resolveProduct } from '../catalogue/catalogue-lookup';
import { round } from '../catalogue/catalogue-service';
import { parsePhotos, type ParsedPhoto } from '../projects/photo-input';
import { effectiveStatus } from '../projects/project-view';
import { recordProjectStatus } from '../projects/project-events';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { checkRecipient, type CheckedRecipient } from './recipient';
import { recordOrderLineStatus } from './order-events';
import { bookPageCounts } from '../projects/book-page-count';
import { checkAddress, type CheckedAddress } from './address-check';
import { OrderChecks, type OrderProblem } from './order-checks';
import { checkAgainstQuote } from './quote-check';
import { matchShippingLevel, type MatchedLevel } from './shipping-level';
import { PRINT_FULFILMENT_FLOW, PROJECT_BUILD_FLOW, fulfilmentWorkflowId, projectBuildWorkflowId } from '../../domain/flows';
import type { PrintInput } from './print-input';
import { ORDER_ID_MAX_LENGTH, isProjectId } from '../../domain/ids';
import { moveProject } from '../../domain/project-status';
import { canonicalJson } from '../../domain/canonical-json';
import { MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { assertPrintable } from '../preflight/preflight';

/**
 * docs/api.md, Print. Validates the whole order, then stores order, lines, payment, shipping and user in one
 * transaction before answering, and starts one fulfilment flow per line. Idempotent on `orderId`:
 * the same request again answers the same confirmation and creates nothing; another payload under
 * the same `orderId` is a 409.
 */
export async function printOrder(ctx: RequestContext, deps: ProjectServiceDeps, input: PrintInput): Promise<{ message: string; order: Order }> {
  // Stopping at the first refusal, the checks throw: a plan that comes back is complete.
  const plan = (await planOrder(ctx, input, new OrderChecks('stopAtFirst')))!;
  if ('replay' in plan) return replay(plan.replay, plan.digest);
  const { orderId, digest, recipient, lines, orderMarket, decimals, totals, shipping, contact } = plan;

  const order = await ctx.em.transactional(async (tx) => {
    const created = tx.create(Order, {
      client: ctx.tenant.clientId,
      env: ctx.tenant.env,
      orderId,
      requestDigest: digest,
      market: orderMarket,
      currency: orderMarket.currency.code,
      email: lines.find((l) => l.project.owner.email)?.project.owner.email ?? null,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
      telephone: contact.telephone ?? recipient.telephone,
      shippingAddress: contact.state ? { ...recipient.address, state: contact.state } : recipient.address,
      subTotal: totals.subTotal,
      shippingCost: totals.shipping,
      shippingMethod: input.payment.shipping?.method ?? null,
      shippingLevel: shipping.level?.code ?? null,
      quoteId: input.quoteId ?? null,
      warnings: shipping.warning ? [shipping.warning] : [],
      couponCode: input.payment.coupon?.code ?? null,
      couponValue: totals.coupon,
      grandTotal: totals.grandTotal,
      paymentMethod: input.payment.method ?? null,
      paymentReference: input.payment.reference ?? null,
      paymentStatus: input.paymentPending ? 'Payment Pending' : 'Payment Complete',
      confirmation: `Order ${orderId}: projects ${lines.map((l) => l.project.id).join(', ')} accepted for printing`,
    });
    for (const [position, line] of lines.entries()) {
      const { project, item } = line;
      // The row lock an editor edit takes too: an edit racing this order either committed first (the
      // line snapshots its title) or waits and then finds the project ordered (EditorService.edit).
      // The book is read again too: a copy read before the lock (the preflight's) would be written back.
      await tx.findOneOrFail(Project, { id: project.id }, { populate: ['book'], lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (project.status === 'deleted') throw new NotFoundError('project', project.id, `projects[${position}].id`);
      if (effectiveStatus(project) === 'expired') throw new ConflictError('PROJECT_EXPIRED', `projects[${position}].id: project ${project.id} has expired and cannot be printed`);
      if (line.product !== project.product || line.market !== project.market) {
        tx.assign(project, { product: line.product, market: line.market, sku: line.product.sku, psp: line.product.specifications.psp.name });
      }
      if (line.photos) {
        // The order's photos replace the project's; the book is rebuilt from them before printing.
        await tx.nativeDelete(Photo, { project, assetId: null });
        line.photos.forEach((photo, i) => tx.create(Photo, { project, clientPhotoId: photo.clientPhotoId, url: photo.url, position: i }));
        moveProject(project, 'building');
        project.photosStatus = line.photos.length ? 'uploading' : 'none';
      } else if (project.status === 'editable') {
        moveProject(project, 'ordering');
      }
      tx.assign(project, { ordered: true, updatedAt: new Date() });
      const orderLine = tx.create(OrderLine, {
        order: created,
        project,
        position,
        quantity: item.quantity,
        lineItemTotal: round(item.lineItemTotal, decimals),
        metadata: item.metadata ?? {},
        sku: project.sku,
        psp: project.psp,
        title: project.title ?? project.sku,
        coverPreviewKey: project.previewKey ?? null,
        status: input.paymentPending ? 'waiting' : 'paid',
      });
      await tx.flush();
      await recordProjectStatus(tx, project);
      await recordOrderLineStatus(tx, orderLine);
    }
    return created;
  });

  for (const line of order.lines) {
    if (lines.find((l) => l.project.id === line.project.id)?.photos) {
      await deps.engine.start(PROJECT_BUILD_FLOW, projectBuildWorkflowId(line.project.id, line.id), { projectId: line.project.id }, { tenant: ctx.tenant });
    }
    await deps.engine.start(PRINT_FULFILMENT_FLOW, fulfilmentWorkflowId(line.id), {
      lineId: line.id,
      assetsTimeoutMs: deps.config.durations.orderStatusTimeoutMs,
      sandboxStepMs: deps.config.durations.sandboxPrinterStepMs,
    }, { tenant: ctx.tenant });
  }
  return { message: order.confirmation, order };
}

/** What the checks found an order to be, ready to write; or the order that already has its orderId. */
type OrderPlan =
  | { replay: Order; digest: string }
  | {
      orderId: string;
      digest: string;
      recipient: CheckedRecipient;
      lines: PlannedLine[];
      orderMarket: Market;
      decimals: number;
      totals: ReturnType<typeof checkTotals>;
      shipping: MatchedLevel;
      contact: CheckedAddress;
    };

/**
 * `POST /v2/print` with `"validateOnly": true` and GraphQL `validateOrder`: every check of a print,
 * nothing written. An orderId already used answers as the print would: valid for the same order
 * again (it would be answered from the first), `IDEMPOTENCY_CONFLICT` for another.
 */
export async function validateOrder(ctx: RequestContext, input: PrintInput): Promise<{ valid: boolean; problems: OrderProblem[] }> {
  const checks = new OrderChecks('collect');
  const plan = await planOrder(ctx, input, checks);
  if (plan && 'replay' in plan) await checks.run(() => replay(plan.replay, plan.digest));
  return { valid: !checks.failed, problems: checks.problems };
}

/** Every check of an order, in the order a print answers them; nothing is written. Undefined when a collected check failed. */
async function planOrder(ctx: RequestContext, input: PrintInput, checks: OrderChecks): Promise<OrderPlan | undefined> {
  const orderId = String(input.orderId ?? '').trim();
  await checks.run(() => {
    if (!orderId || orderId.length > ORDER_ID_MAX_LENGTH) throw ValidationError.field('orderId', `is required (at most ${ORDER_ID_MAX_LENGTH} characters)`);
  });
  const digest = requestDigest(input);
  const existing = orderId ? await ctx.em.findOne(Order, { orderId }) : null;
  if (existing) return { replay: existing, digest };

  const recipient = await checks.run(() => checkRecipient(input.user));
  const address = recipient?.address;
  const listed = await checks.run(() => {
    if (!Array.isArray(input.projects) || input.projects.length === 0) throw ValidationError.field('projects', 'must list at least one project');
    if (input.projects.length > MAX_PROJECTS_PER_ORDER) throw ValidationError.field('projects', `must list at most ${MAX_PROJECTS_PER_ORDER} projects`);
    return true;
  });
  if (!listed) return undefined;

  const lines: PlannedLine[] = [];
  const seen = new Set<string>();
  for (const [i, item] of input.projects.entries()) {
    const line = await checks.run(() => planLine(ctx, item, `projects[${i}]`, seen));
    if (line) lines.push(line);
  }
  if (lines.length !== input.projects.length) return undefined;
  await checks.run(() => assertPrintable(ctx, lines.map((l) => ({ project: l.project, product: l.product, rebuilt: l.photos !== undefined }))));

  const markets = new Set(lines.map((l) => l.market.id));
  await checks.run(() => {
    if (markets.size > 1) throw new RejectedError('MIXED_MARKETS', 'projects', 'all projects of an order must be in one market (one currency)');
  });
  if (markets.size > 1) return undefined;
  const orderMarket = lines[0].market;
  await ctx.em.populate(orderMarket, ['currency']);
  const decimals = orderMarket.currency.decimals;

  const pageCounts = await bookPageCounts(ctx, lines.map((l) => l.project.id));
  await checks.run(() => checkPageCounts(lines, pageCounts));

  const country = address?.isoCode2;
  const shipping = country ? matchShippingLevel(orderMarket, input.payment?.shipping?.method, country) : { level: null };
  const contact = address
    ? checkAddress(orderMarket, { countryIso2: address.isoCode2, postcode: address.postcode, state: address.state, telephone: input.user?.telephone })
    : { problems: [] };
  // A country the market does not ship to has no level either: one answer for it is enough.
  const shippingProblems = shipping.problem && !contact.problems.some((p) => p.code === 'COUNTRY_NOT_SHIPPED') ? [shipping.problem] : [];
  checks.refuse('rejected', [...contact.problems, ...shippingProblems]);

  const totals = await checks.run(() => checkTotals(input, decimals, { compare: input.quoteId === undefined }));
  if (input.quoteId !== undefined && totals && address) {
    await checks.run(() =>
      checkAgainstQuote(ctx, String(input.quoteId), {
        marketId: orderMarket.marketId,
        currency: { code: orderMarket.currency.code, decimals },
        countryIso2: address.isoCode2,
        shippingLevel: shipping.level?.code ?? null,
        lines: lines.map((l) => ({
          projectId: l.project.id,
          sku: l.product.sku,
          pageCount: l.photos ? undefined : pageCounts.get(l.project.id),
          quantity: l.item.quantity,
          lineItemTotal: l.item.lineItemTotal,
        })),
        shippingCost: input.payment.shipping?.cost ?? 0,
        couponValue: input.payment.coupon?.value ?? 0,
        grandTotal: input.payment.grandTotal,
      }),
    );
  }
  if (checks.failed || !recipient || !totals) return undefined;
  return { orderId, digest, recipient, lines, orderMarket, decimals, totals, shipping, contact };
}

/** One line of the order: its project (of this tenant, not deleted or expired), product and market. */
async function planLine(ctx: RequestContext, item: PrintInput['projects'][number], at: string, seen: Set<string>): Promise<PlannedLine> {
  if (!isProjectId(item?.id)) {
    throw ValidationError.field(`${at}.id`, 'must be the id of a project created by generate (starts with p-)', 'INVALID_PROJECT_ID');
  }
  if (seen.has(item.id)) throw ValidationError.field(`${at}.id`, 'lists the same project twice; use quantity for copies');
  seen.add(item.id);
  if (!Number.isInteger(item.quantity) || item.quantity < 1) throw ValidationError.field(`${at}.quantity`, 'must be an integer of at least 1');
  if (typeof item.lineItemTotal !== 'number' || !Number.isFinite(item.lineItemTotal) || item.lineItemTotal < 0) {
    throw ValidationError.field(`${at}.lineItemTotal`, 'must be a number of at least 0');
  }
  const photos = item.photos === undefined ? undefined : parsePhotos(item.photos, `${at}.photos`);
  const project = await ctx.em.findOne(Project, { id: item.id, status: { $ne: 'deleted' } }, { populate: ['owner', 'market', 'product'] });
  if (!project) throw new NotFoundError('project', item.id, `${at}.id`);
  if (effectiveStatus(project) === 'expired') throw new ConflictError('PROJECT_EXPIRED', `${at}.id: project ${item.id} has expired and cannot be printed`);
  const product = item.product?.sku !== undefined || item.product?.psp !== undefined
    ? await resolveProduct(ctx, item.product?.sku ?? project.sku, item.product?.psp ?? project.psp, { sku: `${at}.product.sku`, psp: `${at}.product.psp` })
    : project.product;
  const market = item.product?.marketId !== undefined ? await resolveMarket(ctx, item.product.marketId, `${at}.product.marketId`) : project.market;
  return { item, project, product, market, photos };
}

/**
 * Spec 2.6: a shop that says which page count it charged for (`metadata.pageCount`, or
 * `extraPages` above the product's `min.pages`) is held to the book as it is now; a book the
 * editor grew after checkout is refused rather than printed at a price nobody paid. A book not laid
 * out yet, or rebuilt from the order's own photos, has no page count to compare.
 */
function checkPageCounts(lines: PlannedLine[], pageCounts: Map<string, number>): void {
  lines.forEach((line, i) => {
    const pages = line.photos ? undefined : pageCounts.get(line.project.id);
    const metadata = (line.item.metadata ?? {}) as { pageCount?: unknown; extraPages?: unknown };
    if (pages === undefined) return;
    const at = `projects[${i}].metadata`;
    if (metadata.pageCount !== undefined && metadata.pageCount !== pages) {
      throw new DomainError('conflict', 'PAGE_COUNT_MISMATCH', `${at}.pageCount: is ${JSON.stringify(metadata.pageCount)} but the book has ${pages} pages`, [
        { path: `${at}.pageCount`, message: `is ${JSON.stringify(metadata.pageCount)} but the book has ${pages} pages` },
      ]);
    }
    const extraPages = Math.max(0, pages - line.product.specifications.min.pages);
    if (metadata.extraPages !== undefined && metadata.extraPages !== extraPages) {
      throw new DomainError('conflict', 'PAGE_COUNT_MISMATCH', `${at}.extraPages: is ${JSON.stringify(metadata.extraPages)} but the book has ${extraPages} pages above the product's ${line.product.specifications.min.pages}`, [
        { path: `${at}.extraPages`, message: `is ${JSON.stringify(metadata.extraPages)} but the book has ${extraPages} pages above the product's ${line.product.specifications.min.pages}` },
      ]);
    }
  });
}

interface PlannedLine {
  item: PrintInput['projects'][number];
  project: Project;
  product: Product;
  market: Market;
  photos?: ParsedPhoto[];
}

function replay(existing: Order, digest: string): { message: string; order: Order } {
  if (existing.requestDigest !== digest) {
    throw new ConflictError('IDEMPOTENCY_CONFLICT', `orderId "${existing.orderId}" was already used for a different order; use a new orderId`);
  }
  return { message: existing.confirmation, order: existing };
}

/** Key order does not matter: the digest is of the request with object keys sorted. */
function requestDigest(input: PrintInput): string {
  // validateOnly asks about this order; it is not part of it.
  const { validateOnly: _, ...order } = input;
  return createHash('sha256').update(canonicalJson(order)).digest('hex');
}

/**
 * grandTotal = Σ lineItemTotal + shipping − coupon, each rounded to the currency's decimals. An
 * order held to a quote (`compare: false`) is compared with the quote instead, whose grand total
 * may add tax.
 */
function checkTotals(input: PrintInput, decimals: number, { compare }: { compare: boolean }) {
  const payment = input.payment;
  if (typeof payment?.grandTotal !== 'number' || !Number.isFinite(payment.grandTotal)) throw ValidationError.field('payment.grandTotal', 'must be a number');
  const subTotal = round(input.projects.reduce((sum, p) => sum + round(p.lineItemTotal, decimals), 0), decimals);
  const shipping = round(payment.shipping?.cost ?? 0, decimals);
  const coupon = round(payment.coupon?.value ?? 0, decimals);
  const expected = round(subTotal + shipping - coupon, decimals);
  const grandTotal = round(payment.grandTotal, decimals);
  if (compare && Math.abs(expected - grandTotal) > 10 ** -(decimals + 1)) {
    const f = (n: number) => n.toFixed(decimals);
    throw new RejectedError(
      'TOTALS_MISMATCH',
      'payment.grandTotal',
      `is ${f(grandTotal)} but the line items (${f(subTotal)}) + shipping (${f(shipping)}) − coupon (${f(coupon)}) make ${f(expected)}`,
    );
  }
  return { subTotal, shipping, coupon, grandTotal };
}
