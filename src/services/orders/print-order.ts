import { createHash } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { equal, lessThanOrEqual } from 'dinero.js';
import { Order, OrderLine, Photo, Project, type Market, type Product, type Proof } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, DomainError, NotFoundError, RejectedError, ValidationError } from '../../domain/errors';
import { resolveMarket, resolveProduct } from '../catalogue/catalogue-lookup';
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
import type { PrintOutput } from '../../domain/print-output';
import { assertProofCurrent, checkProof, claimProof } from './proof-check';
import { matchShippingLevel, type MatchedLevel } from './shipping-level';
import { PRINT_FULFILMENT_FLOW, PROJECT_BUILD_FLOW } from '../../domain/flows';
import { holdUntilFor } from '../routing/hold-window';
import { PrintInput } from './print-input';
import { isProjectId } from '../../domain/ids';
import { moveProject } from '../../domain/project-status';
import { canonicalJson } from '../../domain/canonical-json';
import { MAX_MONEY } from '../../domain/limits';
import { freeformLimitError } from '../../domain/safe-text';
import { assertPrintable } from '../preflight/preflight';
import { evenPageBounds } from '../projects/book-builder';
import { schemaCheck } from '../schema-check';
import { asNumber, currencyOf, decimal, minus, roundedMoneyOf, sum, type Money } from '../money/money';

/**
 * docs/api.md, Print. Validates the whole order, then stores order, lines, payment, shipping and user in one
 * transaction before answering, and starts one fulfilment flow per line. Idempotent on `orderId`:
 * the same request again answers the same confirmation and creates nothing; another payload under
 * the same `orderId` is a 409.
 */
export async function printOrder(
  ctx: RequestContext,
  deps: ProjectServiceDeps,
  input: PrintInput,
): Promise<{ message: string; order: Order }> {
  // Stopping at the first refusal, the checks throw: a plan that comes back is complete.
  const plan = (await planOrder(ctx, input, new OrderChecks('stopAtFirst'), deps.config.printOutput))!;
  if ('replay' in plan) return replay(plan.replay, plan.digest);
  const { orderId, digest, recipient, lines, orderMarket, totals, shipping, contact } = plan;

  let order: Order;
  try {
    order = await writeOrder();
  } catch (error) {
    // The same orderId written meanwhile by a concurrent request (the same print sent twice at once,
    // without an Idempotency-Key): the unique (client, env, orderId) made it one order; this request
    // answers as a retry would, the same confirmation for the same order, a 409 for another.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const existing = await ctx.em.fork().findOne(Order, { orderId });
    if (!existing) throw error;
    return replay(existing, digest);
  }
  await startFlows(order);
  return { message: order.confirmation, order };

  function writeOrder(): Promise<Order> {
    return ctx.em.transactional(async (tx) => {
      const holdUntil = input.paymentPending ? null : await holdUntilFor(tx, ctx.tenant, new Date());
      const created = tx.create(Order, {
        holdUntil,
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
        await tx.findOneOrFail(
          Project,
          { id: project.id },
          { populate: ['book'], lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        if (project.status === 'deleted') throw new NotFoundError('project', project.id, `projects[${position}].id`);
        if (effectiveStatus(project) === 'expired')
          throw new ConflictError(
            'PROJECT_EXPIRED',
            `projects[${position}].id: project ${project.id} has expired and cannot be printed`,
          );
        // The book as locked is the book ordered: an edit that committed since the checks is checked here.
        await checkLockedBook({ ...ctx, em: tx }, line, position, input);
        const at = `projects[${position}]`;
        if (line.proof)
          await assertProofCurrent(tx, line.proof, {
            at,
            project,
            product: line.product,
            output: deps.config.printOutput,
          });
        if (line.product !== project.product || line.market !== project.market) {
          tx.assign(project, {
            product: line.product,
            market: line.market,
            sku: line.product.sku,
            psp: line.product.specifications.psp.name,
          });
        }
        if (line.photos) {
          // The order's photos replace the project's; the book is rebuilt from them before printing.
          await tx.nativeDelete(Photo, { project, assetId: null });
          line.photos.forEach((photo, i) =>
            tx.create(Photo, { project, clientPhotoId: photo.clientPhotoId, url: photo.url, position: i }),
          );
          moveProject(project, 'building');
          // The rebuilt book is laid out to the page count the order was priced for, when it names one.
          project.heldPageCount = line.pricedPages ?? null;
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
          lineItemTotal: totals.lineTotals[position],
          metadata: item.metadata ?? {},
          sku: project.sku,
          psp: project.psp,
          title: project.title ?? project.sku,
          coverPreviewKey: project.previewKey ?? null,
          status: input.paymentPending ? 'waiting' : 'paid',
        });
        await tx.flush();
        if (line.proof) await claimProof(tx, line.proof, orderLine.id, at);
        await recordProjectStatus(tx, project);
        await recordOrderLineStatus(tx, orderLine);
      }
      return created;
    });
  }

  async function startFlows(written: Order): Promise<void> {
    for (const line of written.lines) {
      if (lines.find((l) => l.project.id === line.project.id)?.photos) {
        await deps.engine.start(
          PROJECT_BUILD_FLOW,
          { projectId: line.project.id, orderLineId: line.id },
          { tenant: ctx.tenant },
        );
      }
      await deps.engine.start(
        PRINT_FULFILMENT_FLOW,
        {
          lineId: line.id,
          assetsTimeoutMs: deps.config.durations.orderStatusTimeoutMs,
          sandboxStepMs: deps.config.durations.sandboxPrinterStepMs,
        },
        { tenant: ctx.tenant },
      );
    }
  }
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
      totals: CheckedTotals;
      shipping: MatchedLevel;
      contact: CheckedAddress;
    };

/**
 * `POST /v2/print` with `"validateOnly": true` and GraphQL `validateOrder`: every check of a print,
 * nothing written. An orderId already used answers as the print would: valid for the same order
 * again (it would be answered from the first), `IDEMPOTENCY_CONFLICT` for another.
 */
export async function validateOrder(
  ctx: RequestContext,
  input: PrintInput,
  output: PrintOutput,
): Promise<{ valid: boolean; problems: OrderProblem[] }> {
  const checks = new OrderChecks('collect');
  const plan = await planOrder(ctx, input, checks, output);
  if (plan && 'replay' in plan) await checks.run(() => replay(plan.replay, plan.digest));
  return { valid: !checks.failed, problems: checks.problems };
}

/**
 * The print input's one declaration (./print-input.ts) checks every transport's order: REST's schema
 * refused a bad body already, GraphQL's types carry no limits, so `printOrder` and `validateOrder`
 * refuse here what `/v2/print` refuses, with the same codes and field paths.
 */
const checkPrintInput = schemaCheck(PrintInput);

/** Every check of an order, in the order a print answers them; nothing is written. Undefined when a collected check failed. */
async function planOrder(
  ctx: RequestContext,
  input: PrintInput,
  checks: OrderChecks,
  output: PrintOutput,
): Promise<OrderPlan | undefined> {
  if (!(await checks.run(() => checkPrintInput(input)))) return undefined;
  const orderId = input.orderId.trim();
  await checks.run(() => {
    if (!orderId) throw ValidationError.field('orderId', 'is required');
  });
  const digest = requestDigest(input);
  const existing = orderId ? await ctx.em.findOne(Order, { orderId }) : null;
  if (existing) return { replay: existing, digest };

  const recipient = await checks.run(() => checkRecipient(input.user));
  const address = recipient?.address;

  const lines: PlannedLine[] = [];
  const seen = new Set<string>();
  for (const [i, item] of input.projects.entries()) {
    const line = await checks.run(() => planLine(ctx, item, `projects[${i}]`, seen, output));
    if (line) lines.push(line);
  }
  if (lines.length !== input.projects.length) return undefined;
  await checks.run(() =>
    assertPrintable(
      ctx,
      lines.map((l) => ({ project: l.project, product: l.product, rebuilt: l.photos !== undefined })),
    ),
  );

  const markets = new Set(lines.map((l) => l.market.id));
  await checks.run(() => {
    if (markets.size > 1)
      throw new RejectedError(
        'MIXED_MARKETS',
        'projects',
        'all projects of an order must be in one market (one currency)',
      );
  });
  if (markets.size > 1) return undefined;
  const orderMarket = lines[0].market;
  await ctx.em.populate(orderMarket, ['currency']);
  const decimals = orderMarket.currency.decimals;

  const pageCounts = await bookPageCounts(
    ctx,
    lines.map((l) => l.project.id),
  );
  for (const [i, line] of lines.entries()) {
    line.checkedPages = line.photos ? undefined : pageCounts.get(line.project.id);
    await checks.run(() => checkStatedPages(line, i, line.checkedPages));
  }

  const country = address?.isoCode2;
  const shipping = country
    ? matchShippingLevel(orderMarket, input.payment?.shipping?.method, country)
    : { level: null };
  const contact = address
    ? checkAddress(orderMarket, {
        countryIso2: address.isoCode2,
        postcode: address.postcode,
        state: address.state,
        telephone: input.user?.telephone,
      })
    : { problems: [] };
  // A country the market does not ship to has no level either: one answer for it is enough.
  const shippingProblems =
    shipping.problem && !contact.problems.some((p) => p.code === 'COUNTRY_NOT_SHIPPED') ? [shipping.problem] : [];
  checks.refuse('rejected', [...contact.problems, ...shippingProblems]);

  const totals = await checks.run(() =>
    checkTotals(input, currencyOf(orderMarket.currency.code, decimals), { compare: input.quoteId === undefined }),
  );
  if (input.quoteId !== undefined && totals && address) {
    const quote = await checks.run(() =>
      checkAgainstQuote(ctx, String(input.quoteId), {
        marketId: orderMarket.marketId,
        currency: { code: orderMarket.currency.code, decimals },
        countryIso2: address.isoCode2,
        shippingLevel: shipping.level?.code ?? null,
        lines: lines.map((l) => ({
          projectId: l.project.id,
          sku: l.product.sku,
          pageCount: l.checkedPages,
          rebuilt: l.photos !== undefined,
          quantity: l.item.quantity,
          lineItemTotal: l.item.lineItemTotal,
        })),
        shippingCost: input.payment.shipping?.cost ?? 0,
        couponValue: input.payment.coupon?.value ?? 0,
        grandTotal: input.payment.grandTotal,
      }),
    );
    // A quote priced by sku holds its page count: a book rebuilt from the order's photos is laid out to it.
    quote?.lines.forEach((quoted, i) => {
      if (lines[i]?.photos) lines[i].pricedPages = quoted.pageCount;
    });
  }
  if (checks.failed || !recipient || !totals) return undefined;
  return { orderId, digest, recipient, lines, orderMarket, totals, shipping, contact };
}

/** One line of the order: its project (of this tenant, not deleted or expired), product and market. */
async function planLine(
  ctx: RequestContext,
  item: PrintInput['projects'][number],
  at: string,
  seen: Set<string>,
  /** What the printers take files in (PRINT_OUTPUT_PROFILE): a proof must have been rendered for it. */
  output: PrintOutput,
): Promise<PlannedLine> {
  if (!isProjectId(item?.id)) {
    throw ValidationError.field(
      `${at}.id`,
      'must be the id of a project created by generate (starts with p-)',
      'INVALID_PROJECT_ID',
    );
  }
  if (seen.has(item.id))
    throw ValidationError.field(`${at}.id`, 'lists the same project twice; use quantity for copies');
  seen.add(item.id);
  checkMetadata(item.metadata, `${at}.metadata`);
  const photos = item.photos === undefined ? undefined : parsePhotos(item.photos, `${at}.photos`);
  const project = await ctx.em.findOne(
    Project,
    { id: item.id, status: { $ne: 'deleted' } },
    { populate: ['owner', 'market', 'product'] },
  );
  if (!project) throw new NotFoundError('project', item.id, `${at}.id`);
  if (effectiveStatus(project) === 'expired')
    throw new ConflictError('PROJECT_EXPIRED', `${at}.id: project ${item.id} has expired and cannot be printed`);
  const product =
    item.product?.sku !== undefined || item.product?.psp !== undefined
      ? await resolveProduct(ctx, item.product?.sku ?? project.sku, item.product?.psp ?? project.psp, {
          sku: `${at}.product.sku`,
          psp: `${at}.product.psp`,
        })
      : project.product;
  const market =
    item.product?.marketId !== undefined
      ? await resolveMarket(ctx, item.product.marketId, `${at}.product.marketId`)
      : project.market;
  const pricedPages = photos ? statedPages(item, product, at) : undefined;
  const proof =
    item.proofId === undefined
      ? undefined
      : await checkProof(ctx.em, item.proofId, {
          at,
          project,
          product,
          colorCorrection: item.metadata?.colorCorrection === true,
          output,
          rebuilt: photos !== undefined,
        });
  return {
    item,
    project,
    product,
    market,
    photos,
    pricedPages,
    proof,
    checkedBook: canonicalJson(project.book ?? null),
  };
}

/**
 * `metadata` is the client's, stored as sent: within the free-form limits (its `pageCount` and
 * `extraPages` the schema bounds).
 */
function checkMetadata(metadata: object | undefined, at: string): void {
  const outside = metadata && freeformLimitError(metadata, at);
  if (outside) throw new ValidationError([outside]);
}

/**
 * The page count a line rebuilt from the order's photos was charged for (`metadata.pageCount`, or
 * `extraPages` above the product's `min.pages`): it must be one the product prints, and the
 * rebuilt book is laid out to it. Undefined when the order names none.
 */
function statedPages(item: PrintInput['projects'][number], product: Product, at: string): number | undefined {
  const metadata = (item.metadata ?? {}) as { pageCount?: number; extraPages?: number };
  const { min, max } = product.specifications;
  const pages = metadata.pageCount ?? (metadata.extraPages !== undefined ? min.pages + metadata.extraPages : undefined);
  if (pages === undefined) return undefined;
  if (
    metadata.pageCount !== undefined &&
    metadata.extraPages !== undefined &&
    metadata.extraPages !== Math.max(0, metadata.pageCount - min.pages)
  ) {
    throw new DomainError(
      'conflict',
      'PAGE_COUNT_MISMATCH',
      `${at}.metadata.extraPages: is ${metadata.extraPages} but pageCount ${metadata.pageCount} has ${Math.max(0, metadata.pageCount - min.pages)} above the product's ${min.pages}`,
      [
        {
          path: `${at}.metadata.extraPages`,
          message: `is ${metadata.extraPages} but pageCount ${metadata.pageCount} has ${Math.max(0, metadata.pageCount - min.pages)} above the product's ${min.pages}`,
        },
      ],
    );
  }
  const { minPages, maxPages } = evenPageBounds(min.pages, max.pages);
  const path = `${at}.metadata.${metadata.pageCount !== undefined ? 'pageCount' : 'extraPages'}`;
  if (pages % 2 !== 0 || pages < minPages || pages > maxPages) {
    throw ValidationError.field(
      path,
      `makes ${pages} pages; ${product.sku} prints an even count from ${minPages} to ${maxPages}`,
      'PAGE_LIMIT',
    );
  }
  return pages;
}

/**
 * Spec 2.6: a shop that says which page count it charged for (`metadata.pageCount`, or
 * `extraPages` above the product's `min.pages`) is held to the book: a book the editor grew after
 * checkout is refused rather than printed at a price nobody paid. `pages` is the book's page
 * count, undefined for a book rebuilt from the order's photos (laid out to the stated count, see
 * `statedPages`). A book still being built cannot be held to a count, so such an order waits.
 */
function checkStatedPages(line: PlannedLine, i: number, pages: number | undefined): void {
  if (line.photos) return;
  const metadata = (line.item.metadata ?? {}) as { pageCount?: unknown; extraPages?: unknown };
  const at = `projects[${i}].metadata`;
  if (pages === undefined) {
    if (metadata.pageCount === undefined && metadata.extraPages === undefined) return;
    throw new DomainError(
      'conflict',
      'PROJECT_BUILDING',
      `projects[${i}].id: the book of ${line.project.id} is not laid out yet, so it cannot be held to the page count the order states; print once it is editable`,
      [
        {
          path: `projects[${i}].id`,
          message:
            'the book is not laid out yet, so it cannot be held to the page count the order states; print once it is editable',
        },
      ],
    );
  }
  if (metadata.pageCount !== undefined && metadata.pageCount !== pages) {
    throw new DomainError(
      'conflict',
      'PAGE_COUNT_MISMATCH',
      `${at}.pageCount: is ${JSON.stringify(metadata.pageCount)} but the book has ${pages} pages`,
      [
        {
          path: `${at}.pageCount`,
          message: `is ${JSON.stringify(metadata.pageCount)} but the book has ${pages} pages`,
        },
      ],
    );
  }
  const extraPages = Math.max(0, pages - line.product.specifications.min.pages);
  if (metadata.extraPages !== undefined && metadata.extraPages !== extraPages) {
    throw new DomainError(
      'conflict',
      'PAGE_COUNT_MISMATCH',
      `${at}.extraPages: is ${JSON.stringify(metadata.extraPages)} but the book has ${extraPages} pages above the product's ${line.product.specifications.min.pages}`,
      [
        {
          path: `${at}.extraPages`,
          message: `is ${JSON.stringify(metadata.extraPages)} but the book has ${extraPages} pages above the product's ${line.product.specifications.min.pages}`,
        },
      ],
    );
  }
}

/**
 * Under the project's row lock, inside the order's transaction: the book about to be ordered is
 * the one every check passed, or the checks run again on it. An edit that committed between the
 * checks and the lock (the editor's `addPages` racing the print) either still fits what the order
 * states, or the order is refused: 409 PAGE_COUNT_MISMATCH for a stated or quoted page count,
 * 422 NOT_PRINTABLE for a book the preflight now blocks. Never printed with pages nobody priced.
 */
async function checkLockedBook(ctx: RequestContext, line: PlannedLine, i: number, input: PrintInput): Promise<void> {
  if (line.photos) return;
  const book = line.project.book ?? null;
  if (canonicalJson(book) === line.checkedBook) return;
  const pages = book?.pages.length;
  checkStatedPages(line, i, pages);
  if (input.quoteId !== undefined && pages !== line.checkedPages) {
    const message = `the book changed to ${pages ?? 'no'} pages while the order was placed; the quote priced ${line.checkedPages ?? 'another count'}`;
    throw new DomainError('conflict', 'PAGE_COUNT_MISMATCH', `projects[${i}].id: ${message}`, [
      { path: `projects[${i}].id`, message },
    ]);
  }
  await assertPrintable(ctx, [{ project: line.project, product: line.product, rebuilt: false, position: i }]);
}

interface PlannedLine {
  item: PrintInput['projects'][number];
  project: Project;
  product: Product;
  market: Market;
  photos?: ParsedPhoto[];
  /** Canonical JSON of the book the checks read (the preflight's): the lock compares the book it holds with it. */
  checkedBook: string;
  /** The book's page count the page-count and quote checks compared; undefined while (re)built. */
  checkedPages?: number;
  /** For a book rebuilt from the order's photos: the page count the order priced (stated, or quoted by sku). */
  pricedPages?: number;
  /** The proof the line prints (`proofId`): its files go to the printer, nothing is rendered. */
  proof?: Proof;
}

function replay(existing: Order, digest: string): { message: string; order: Order } {
  if (existing.requestDigest !== digest) {
    throw new ConflictError(
      'IDEMPOTENCY_CONFLICT',
      `orderId "${existing.orderId}" was already used for a different order; use a new orderId`,
    );
  }
  return { message: existing.confirmation, order: existing };
}

/** Key order does not matter: the digest is of the request with object keys sorted. */
function requestDigest(input: PrintInput): string {
  // validateOnly asks about this order; it is not part of it.
  const { validateOnly: _, ...order } = input;
  return createHash('sha256').update(canonicalJson(order)).digest('hex');
}

/** An order's amounts as checked: exact, in the currency's decimals, and the numbers stored. */
interface CheckedTotals {
  lineTotals: number[];
  subTotal: number;
  shipping: number;
  coupon: number;
  grandTotal: number;
}

/**
 * grandTotal = Σ lineItemTotal + shipping − coupon, in exact money (dinero.js, minor units): each
 * amount the client sent is rounded half away from zero to the currency's decimals on its decimal
 * digits, then added and compared exactly. Every amount, and the line items' sum, is within
 * 0…MAX_MONEY; the coupon is at most the line items' subtotal (as a quote's), so no grand total is
 * negative. An order held to a quote (`compare: false`) is compared with the quote instead, whose
 * grand total may add tax.
 */
function checkTotals(
  input: PrintInput,
  currency: ReturnType<typeof currencyOf>,
  { compare }: { compare: boolean },
): CheckedTotals {
  const payment = input.payment;
  const amount = (value: number): Money => roundedMoneyOf(value, currency);
  const lineTotals = input.projects.map((p) => amount(p.lineItemTotal));
  const subTotal = sum(lineTotals, currency);
  if (asNumber(subTotal) > MAX_MONEY)
    throw ValidationError.field(
      'projects',
      `the line items add up to ${decimal(subTotal)}; an order totals at most ${MAX_MONEY}`,
    );
  const shipping = amount(payment.shipping?.cost ?? 0);
  const coupon = amount(payment.coupon?.value ?? 0);
  const grandTotal = amount(payment.grandTotal);
  if (!lessThanOrEqual(coupon, subTotal)) {
    throw new RejectedError(
      'COUPON_TOO_LARGE',
      'payment.coupon.value',
      `is ${decimal(coupon)}, more than the line items' subtotal ${decimal(subTotal)}`,
    );
  }
  const expected = minus(sum([subTotal, shipping], currency), coupon);
  if (compare && !equal(expected, grandTotal)) {
    throw new RejectedError(
      'TOTALS_MISMATCH',
      'payment.grandTotal',
      `is ${decimal(grandTotal)} but the line items (${decimal(subTotal)}) + shipping (${decimal(shipping)}) − coupon (${decimal(coupon)}) make ${decimal(expected)}`,
    );
  }
  return {
    lineTotals: lineTotals.map((total) => asNumber(total)),
    subTotal: asNumber(subTotal),
    shipping: asNumber(shipping),
    coupon: asNumber(coupon),
    grandTotal: asNumber(grandTotal),
  };
}
