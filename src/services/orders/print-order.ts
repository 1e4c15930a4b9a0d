import { createHash } from 'node:crypto';
import { Order, OrderLine, Photo, Project, type Market, type Product } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, RejectedError, ValidationError } from '../../domain/errors';
import { resolveMarket, resolveProduct } from '../catalogue/catalogue-lookup';
import { round } from '../catalogue/catalogue-service';
import { parsePhotos, type ParsedPhoto } from '../projects/photo-input';
import { effectiveStatus } from '../projects/project-view';
import { recordProjectStatus } from '../projects/project-events';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { checkRecipient } from './recipient';
import { recordOrderLineStatus } from './order-events';
import { PRINT_FULFILMENT_FLOW, PROJECT_BUILD_FLOW, fulfilmentWorkflowId, projectBuildWorkflowId } from '../../domain/flows';
import type { PrintInput } from './print-input';
import { ORDER_ID_MAX_LENGTH, isProjectId } from '../../domain/ids';
import { moveProject } from '../../domain/project-status';
import { canonicalJson } from '../../domain/canonical-json';
import { MAX_PROJECTS_PER_ORDER } from '../../domain/limits';

/**
 * docs/api.md, Print. Validates the whole order, then stores order, lines, payment, shipping and user in one
 * transaction before answering, and starts one fulfilment flow per line. Idempotent on `orderId`:
 * the same request again answers the same confirmation and creates nothing; another payload under
 * the same `orderId` is a 409.
 */
export async function printOrder(ctx: RequestContext, deps: ProjectServiceDeps, input: PrintInput): Promise<{ message: string; order: Order }> {
  const orderId = String(input.orderId ?? '').trim();
  if (!orderId || orderId.length > ORDER_ID_MAX_LENGTH) throw ValidationError.field('orderId', `is required (at most ${ORDER_ID_MAX_LENGTH} characters)`);
  const digest = requestDigest(input);
  const existing = await ctx.em.findOne(Order, { orderId });
  if (existing) return replay(existing, digest);

  const recipient = checkRecipient(input.user);
  if (!Array.isArray(input.projects) || input.projects.length === 0) throw ValidationError.field('projects', 'must list at least one project');
  if (input.projects.length > MAX_PROJECTS_PER_ORDER) throw ValidationError.field('projects', `must list at most ${MAX_PROJECTS_PER_ORDER} projects`);

  const lines: PlannedLine[] = [];
  const seen = new Set<string>();
  for (const [i, item] of input.projects.entries()) {
    const at = `projects[${i}]`;
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
    lines.push({ item, project, product, market, photos });
  }

  const markets = new Set(lines.map((l) => l.market.id));
  if (markets.size > 1) throw new RejectedError('MIXED_MARKETS', 'projects', 'all projects of an order must be in one market (one currency)');
  const orderMarket = lines[0].market;
  await ctx.em.populate(orderMarket, ['currency']);
  const decimals = orderMarket.currency.decimals;
  const totals = checkTotals(input, decimals);

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
      telephone: recipient.telephone,
      shippingAddress: recipient.address,
      subTotal: totals.subTotal,
      shippingCost: totals.shipping,
      shippingMethod: input.payment.shipping?.method ?? null,
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
      await deps.engine.start(PROJECT_BUILD_FLOW, projectBuildWorkflowId(line.project.id, line.id), { projectId: line.project.id });
    }
    await deps.engine.start(PRINT_FULFILMENT_FLOW, fulfilmentWorkflowId(line.id), {
      lineId: line.id,
      assetsTimeoutMs: deps.config.durations.orderStatusTimeoutMs,
      sandboxStepMs: deps.config.durations.sandboxPrinterStepMs,
    });
  }
  return { message: order.confirmation, order };
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
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

/** grandTotal = Σ lineItemTotal + shipping − coupon, each rounded to the currency's decimals. */
function checkTotals(input: PrintInput, decimals: number) {
  const payment = input.payment;
  if (typeof payment?.grandTotal !== 'number' || !Number.isFinite(payment.grandTotal)) throw ValidationError.field('payment.grandTotal', 'must be a number');
  const subTotal = round(input.projects.reduce((sum, p) => sum + round(p.lineItemTotal, decimals), 0), decimals);
  const shipping = round(payment.shipping?.cost ?? 0, decimals);
  const coupon = round(payment.coupon?.value ?? 0, decimals);
  const expected = round(subTotal + shipping - coupon, decimals);
  const grandTotal = round(payment.grandTotal, decimals);
  if (Math.abs(expected - grandTotal) > 10 ** -(decimals + 1)) {
    const f = (n: number) => n.toFixed(decimals);
    throw new RejectedError(
      'TOTALS_MISMATCH',
      'payment.grandTotal',
      `is ${f(grandTotal)} but the line items (${f(subTotal)}) + shipping (${f(shipping)}) − coupon (${f(coupon)}) make ${f(expected)}`,
    );
  }
  return { subTotal, shipping, coupon, grandTotal };
}
