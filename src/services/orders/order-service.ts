import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderLine } from '../../db/entities';
import { ACROSS_TENANTS, scopeToOwnerOf } from '../../db/tenant-filter';
import { lineOfPrinterEvent, printJobKeyOf, type PrinterEventJob } from './printer-job-match';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import {
  STATUS_UPDATE_SIGNAL,
  WorkflowNotFoundError,
  fulfilmentWorkflowId,
  type StatusUpdate,
} from '../../domain/flows';
import { printOrder, validateOrder } from './print-order';
import type { PrintInput } from './print-input';
import { createQuote } from './quote-service';
import type { QuoteInput } from './quote-input';
import { orderHistory } from './order-history';
import { moveOrderLine } from './order-line-status';
import { ECOMMERCE_STATUSES, type OrderStatus, type PrinterEventStatus } from '../../domain/order-status';
import { normaliseEmail } from '../projects/user-identity';
import { MAX_ORDER_PAGE_SIZE } from '../../domain/limits';
import { assertDateIdCursor, isUuid } from '../cursors';
import { printFilesOf, type OrderPrintFiles } from './print-files';
import type { PrinterRegistry } from '../../printers/printer-registry';
import { PrinterRefusedCancel, PrinterUnavailable } from '../../printers/printer';
import { isOrderStatus } from '../../domain/order-status';
import {
  actionNotAvailable,
  assertAvailable,
  availabilityOf,
  cancelBlocker,
  currentSequences,
  heldByPrinter,
  lockLines,
  openHold,
  type ActionAvailability,
} from './order-actions';
import { recordOrderEvent } from './order-events';
import {
  checkDestination,
  checkRecipient,
  checkRecipientUpdate,
  checkShippingChoice,
  levelOfChoice,
  type RecipientInput,
  type ShippingChoiceInput,
} from './recipient';
import { orderViewOf, type OrderListPage, type OrderView } from './order-view';
import type { Parcel } from '../../domain/parcel';
import type { Environment } from '../../domain/environment';
import { ORDER_ID_MAX_LENGTH } from '../../domain/ids';
import { customerWhere } from './customer-search';
import { checkClaim, claimOrder, remadeLinesOf } from './claim-order';
import type { ClaimContext } from './claim-availability';
import { holdUntilFor } from '../routing/hold-window';

/** The service hands the transports an order entity with its lines; they name its type through here, never src/db. */
export type { Order };

/** What orders may be filtered by. */
export interface OrderFilter {
  email?: string;
  status?: string;
  /** The caller's order id, exactly. */
  orderId?: string;
  /** Words each found, in any case, in the first name, last name or e-mail the order carries. */
  customer?: string;
  /** ISO 8601 date-times: created at or after / before. */
  createdAfter?: string;
  createdBefore?: string;
  /** How the page size is named to the caller (`first` in GraphQL, `limit` in REST). */
  firstPath?: string;
}

/** `GET /v2/order/list` without `limit`. */
const DEFAULT_ORDER_LIST_SIZE = 20;

/** A date-time filter as the client sent it: ISO 8601 with a time zone, or a date (UTC midnight). */
function dateOf(value: string, path: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(at))
    throw ValidationError.field(
      path,
      'must be an ISO 8601 date (2026-11-01) or date-time with a time zone (2026-11-01T09:00:00Z)',
    );
  return new Date(at);
}

function checkedOrderId(orderId: string): string {
  if (orderId.length < 1 || orderId.length > ORDER_ID_MAX_LENGTH) {
    throw ValidationError.field('orderId', `must be 1 to ${ORDER_ID_MAX_LENGTH} characters`);
  }
  return orderId;
}

/** Orders: placing them, reading them, and the status changes that come from outside. */
export class OrderService {
  constructor(private readonly deps: ProjectServiceDeps & { em: EntityManager; printers: PrinterRegistry }) {}

  print(ctx: RequestContext, input: PrintInput) {
    return printOrder(ctx, this.deps, input);
  }

  /** Every check of `print`, nothing written: `{ valid, problems }`. */
  validate(ctx: RequestContext, input: PrintInput) {
    return validateOrder(ctx, input, this.deps.config.printOutput);
  }

  quote(ctx: RequestContext, input: QuoteInput) {
    return createQuote(ctx, input, { ttlMs: this.deps.config.durations.quoteTtlMs });
  }

  history(ctx: RequestContext, query: { email: string; language: string; cursor?: string }) {
    return orderHistory(ctx, this.deps.files, this.deps.config.timezone, query);
  }

  async find(ctx: RequestContext, orderId: string, also: 'market'[] = []): Promise<Order> {
    const order = await ctx.em.findOne(
      Order,
      { orderId },
      { populate: ['lines', 'lines.project', 'remakeOf', 'remakes', ...also] },
    );
    if (!order) throw new NotFoundError('order', orderId, 'orderId');
    return order;
  }

  /** Signed URLs of the print files of an order's lines (one project's when `projectId` is given); another client's order is not found. */
  async printFiles(ctx: RequestContext, orderId: string, projectId?: string): Promise<OrderPrintFiles> {
    const order = await this.find(ctx, orderId);
    const lines = order.lines.getItems().filter((line) => projectId === undefined || line.project.id === projectId);
    if (lines.length === 0) throw new NotFoundError('project of order', projectId ?? '', 'projectId');
    return {
      orderId: order.orderId,
      lines: lines.map((line) => {
        const printFiles = printFilesOf(line, this.deps.files);
        return { projectId: line.project.id, status: line.status, ...(printFiles ? { printFiles } : {}) };
      }),
    };
  }

  /**
   * Orders newest first, keyset-paged (GraphQL `orders`, `GET /v2/order/list`): a user's when
   * `email` is given, those with a line in `status`, created in [createdAfter, createdBefore), the one
   * with `orderId`, those whose customer matches `customer` (customerWhere). `after` is a cursor this
   * service issued.
   */
  async page(ctx: RequestContext, options: OrderFilter & { first: number; after?: string; afterPath?: string }) {
    if (!Number.isInteger(options.first) || options.first < 1 || options.first > MAX_ORDER_PAGE_SIZE)
      throw ValidationError.field(options.firstPath ?? 'first', `must be from 1 to ${MAX_ORDER_PAGE_SIZE}`);
    if (options.after !== undefined) assertDateIdCursor(options.after, options.afterPath ?? 'after', isUuid);
    if (options.status !== undefined && !isOrderStatus(options.status))
      throw ValidationError.field('status', 'must be an order status (docs/api.md, Order line statuses)');
    const createdAt = {
      ...(options.createdAfter ? { $gte: dateOf(options.createdAfter, 'createdAfter') } : {}),
      ...(options.createdBefore ? { $lt: dateOf(options.createdBefore, 'createdBefore') } : {}),
    };
    const where = {
      ...(options.email ? { email: normaliseEmail(options.email, 'email') } : {}),
      ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
      ...(options.status ? { lines: { status: options.status as OrderStatus } } : {}),
      ...(options.orderId !== undefined ? { orderId: checkedOrderId(options.orderId) } : {}),
      ...(options.customer !== undefined ? customerWhere(options.customer) : {}),
    };
    return ctx.em.findByCursor(Order, where, {
      first: options.first,
      after: options.after,
      orderBy: { createdAt: 'desc', id: 'desc' },
      populate: ['lines', 'lines.project', 'remakeOf', 'remakes'],
      includeCount: false,
    });
  }

  /** `GET /v2/order`: one order with its lines, tracking, print files and the actions available now. */
  async view(ctx: RequestContext, orderId: string): Promise<OrderView> {
    const order = await this.find(ctx, orderId);
    return orderViewOf(
      order,
      this.deps.files,
      await currentSequences(ctx.em, order, order.lines.getItems()),
      this.availability(order),
    );
  }

  /** `GET /v2/order/list`: `limit` orders a page (at most 100), newest first, with the filters of `page`. */
  async list(ctx: RequestContext, query: OrderFilter & { cursor?: string; limit?: number }): Promise<OrderListPage> {
    const page = await this.page(ctx, {
      ...query,
      first: query.limit ?? DEFAULT_ORDER_LIST_SIZE,
      firstPath: 'limit',
      after: query.cursor,
      afterPath: 'cursor',
    });
    const data: OrderView[] = [];
    for (const order of page.items) {
      const lines = order.lines.getItems();
      data.push(
        orderViewOf(order, this.deps.files, await currentSequences(ctx.em, order, lines), this.availability(order)),
      );
    }
    return { data, ...(page.hasNextPage && page.endCursor ? { cursor: page.endCursor } : {}) };
  }

  /**
   * `GET /v2/order/actions`: each action with whether it is available now and, when not, why; while
   * the shop's hold window is open, `holdUntil` (and each available action's `until`) says until when
   * the order stays away from the printer.
   */
  async actions(
    ctx: RequestContext,
    orderId: string,
  ): Promise<{ orderId: string; holdUntil?: Date; actions: ActionAvailability[] }> {
    const order = await this.find(ctx, orderId);
    const holdUntil = openHold(order.lines.getItems(), order.holdUntil);
    return {
      orderId: order.orderId,
      ...(holdUntil !== undefined ? { holdUntil } : {}),
      actions: this.availability(order),
    };
  }

  /** Each action's availability now, for an order loaded by `find` or `page` (its lines and remakes). */
  availability(order: Order): ActionAvailability[] {
    return availabilityOf(order.lines.getItems(), this.claimContext(order.remakes.getItems()), order.holdUntil);
  }

  private claimContext(remakes: Order[]): ClaimContext {
    return {
      windowMs: this.deps.config.durations.claimWindowMs,
      now: new Date(),
      remade: remadeLinesOf(remakes),
    };
  }

  /**
   * `POST /v2/order/claim`: a remake of the delivered lines named (all when none are), within the
   * claim window (docs/api.md, Claims and remakes). Answers the remake, a new order of its own.
   */
  async claim(ctx: RequestContext, input: unknown): Promise<Order> {
    const claim = checkClaim(input);
    const original = await this.find(ctx, claim.orderId);
    const lines = this.selectLines(original, claim.projectIds, 'projectIds');
    const { remade: _, ...context } = this.claimContext([]);
    const remakeId = await claimOrder(ctx, this.deps, original, lines, { ...claim, context });
    ctx.em.clear();
    return this.find(ctx, remakeId);
  }

  /**
   * Cancels the whole order, or the listed projects of it, until the printer starts production
   * (docs/api.md, Order actions). Every line is checked before anything changes; a job the printer
   * already holds is withdrawn from the printer first (it may refuse: 409). Then, in one
   * transaction, each line moves to `cancelled` with its events and the order gets
   * `order.cancelled`; the lines' flows are told last, and stop. Cancelling what is already
   * cancelled changes nothing and answers the order.
   */
  async cancel(ctx: RequestContext, input: { orderId: string; projectIds?: string[] }): Promise<Order> {
    const order = await this.find(ctx, input.orderId);
    const lines = this.selectLines(order, input.projectIds, 'projectIds');
    assertAvailable('cancel', order.orderId, lines);
    for (const line of lines.filter(heldByPrinter)) {
      // The printer routing placed the job with; lines sent before routing name none and went to the default.
      const routed =
        line.printer &&
        (await this.deps.printers.printerNamed(line.printer, { tenantId: ctx.tenant.clientId, env: order.env }));
      if (line.printer && !routed)
        throw new ConflictError(
          'PRINTER_UNAVAILABLE',
          `the printer of project ${line.project.id} (${line.printer}) cannot be reached from here to cancel; try again later`,
        );
      const printer = routed || this.deps.printers.printerFor({ psp: line.psp, env: order.env });
      try {
        await printer.cancel({
          jobId: line.printerJobId!,
          jobKey: printJobKeyOf({ order, project: line.project }),
          orderId: order.orderId,
          projectId: line.project.id,
        });
      } catch (error) {
        if (error instanceof PrinterRefusedCancel)
          throw actionNotAvailable(
            'cancel',
            order.orderId,
            `project ${line.project.id} is "${line.status}": the printer refused: ${error.message}`,
          );
        if (error instanceof PrinterUnavailable)
          throw new ConflictError(
            'PRINTER_UNAVAILABLE',
            `the printer of project ${line.project.id} could not be asked to cancel now; try again later (${error.message})`,
          );
        throw error;
      }
    }
    const wanted = new Set(lines.map((l) => l.id));
    const cancelled = await ctx.em.fork().transactional(async (tx) => {
      const locked = (await lockLines(tx, order)).filter((l) => wanted.has(l.id));
      // The lines may have moved since the check (a printer event, the flow's next step).
      for (const line of locked) {
        const reason = cancelBlocker(line);
        if (reason) throw actionNotAvailable('cancel', order.orderId, reason);
      }
      const moved: { line: OrderLine; sequence: number }[] = [];
      for (const line of locked.filter((l) => l.status !== 'cancelled')) {
        const result = await moveOrderLine(tx, line.id, { status: 'cancelled' });
        moved.push({ line, sequence: result.sequence! });
      }
      if (moved.length > 0)
        await recordOrderEvent(tx, locked[0].order, 'order.cancelled', moved, {
          wholeOrder: input.projectIds === undefined,
        });
      return moved.map((m) => m.line.id);
    });
    for (const lineId of cancelled) await this.notifyFlow(lineId, { status: 'cancelled' });
    ctx.em.clear();
    return this.find(ctx, input.orderId);
  }

  /** Corrects the recipient before the job goes to the printer, checked as `/v2/print` checks it; the job then carries the new address. */
  async updateRecipient(ctx: RequestContext, input: { orderId: string; user: RecipientInput }): Promise<Order> {
    checkRecipientUpdate({ user: input.user });
    const { market, shippingLevel } = await this.find(ctx, input.orderId, ['market']);
    const recipient = checkDestination(market, checkRecipient(input.user, 'user'), shippingLevel);
    return this.changeOrder(ctx, input.orderId, 'update-recipient', (order) => {
      order.firstName = recipient.firstName;
      order.lastName = recipient.lastName;
      order.telephone = recipient.telephone;
      order.shippingAddress = recipient.address;
      return { changed: ['recipient'] };
    });
  }

  /** Changes the shipping method (level) before the job goes to the printer. */
  async updateShipping(ctx: RequestContext, input: { orderId: string; shipping: ShippingChoiceInput }): Promise<Order> {
    const shipping = checkShippingChoice(input.shipping, 'shipping');
    const { market, shippingAddress } = await this.find(ctx, input.orderId, ['market']);
    const level = levelOfChoice(market, shipping.method, shippingAddress.isoCode2);
    return this.changeOrder(ctx, input.orderId, 'update-shipping', (order) => {
      order.shippingMethod = shipping.method;
      if (level) order.shippingLevel = level;
      return { changed: ['shipping'], shipping: { method: shipping.method, ...(level ? { level } : {}) } };
    });
  }

  /** An order change that must land before any line's job goes to the printer: under the lines' locks, with `order.updated`. */
  private async changeOrder(
    ctx: RequestContext,
    orderId: string,
    action: 'update-recipient' | 'update-shipping',
    change: (order: Order) => Record<string, unknown>,
  ): Promise<Order> {
    const order = await this.find(ctx, orderId);
    await ctx.em.fork().transactional(async (tx) => {
      const lines = await lockLines(tx, order);
      assertAvailable(action, order.orderId, lines);
      const locked = lines[0].order;
      const extra = change(locked);
      const open = lines.filter((l) => l.status !== 'cancelled');
      const sequences = await currentSequences(tx, locked, open);
      await recordOrderEvent(
        tx,
        locked,
        'order.updated',
        open.map((line) => ({ line, sequence: sequences.get(line.id) ?? 0 })),
        extra,
      );
    });
    ctx.em.clear();
    return this.find(ctx, orderId);
  }

  /** The order's lines named by project id (all when none are named); an unknown one is a 404 naming it. */
  private selectLines(order: Order, projectIds: string[] | undefined, path: string): OrderLine[] {
    const lines = order.lines.getItems();
    if (projectIds === undefined) return lines;
    if (!Array.isArray(projectIds) || projectIds.length === 0)
      throw ValidationError.field(
        path,
        'must name at least one project of the order, or be left out for the whole order',
      );
    return projectIds.map((id, i) => {
      const line = lines.find((l) => l.project.id === id);
      if (!line) throw new NotFoundError('project of order', id, `${path}[${i}]`);
      return line;
    });
  }

  /** Cancel or refund all lines of an order, or one project's line; refused where the table forbids it. */
  async setStatus(ctx: RequestContext, input: { orderId: string; projectId?: string; status: string }): Promise<Order> {
    if (!(ECOMMERCE_STATUSES as readonly string[]).includes(input.status)) {
      throw ValidationError.field('status', `must be one of ${ECOMMERCE_STATUSES.join(', ')}`);
    }
    if (input.status === 'cancelled')
      return this.cancel(ctx, {
        orderId: input.orderId,
        ...(input.projectId ? { projectIds: [input.projectId] } : {}),
      });
    const order = await this.find(ctx, input.orderId);
    const lines = order.lines.getItems().filter((l) => !input.projectId || l.project.id === input.projectId);
    if (lines.length === 0) throw new NotFoundError('project of order', input.projectId ?? '', 'projectId');
    for (const line of lines) {
      const result = await moveOrderLine(ctx.em.fork(), line.id, { status: input.status as OrderStatus });
      if (!result.moved && result.status !== input.status) {
        throw new ConflictError(
          'ORDER_STATUS_CONFLICT',
          `project ${line.project.id} of order ${order.orderId} is "${result.status}" and cannot become "${input.status}"`,
        );
      }
      await this.notifyFlow(line.id, { status: result.status });
    }
    ctx.em.clear();
    return this.find(ctx, input.orderId);
  }

  /** The payment of an order placed with `paymentPending` arrived: its waiting lines go on. */
  async confirmPayment(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await this.find(ctx, orderId);
    // The hold window starts now, written before the lines' flows hear of the payment and read it.
    if (!order.holdUntil) {
      const holdUntil = await holdUntilFor(ctx.em, ctx.tenant, new Date());
      if (holdUntil) await ctx.em.nativeUpdate(Order, { id: order.id, holdUntil: null }, { holdUntil });
    }
    for (const line of order.lines.getItems()) {
      const result = await moveOrderLine(ctx.em.fork(), line.id, { status: 'paid' });
      if (!result.moved && result.status !== 'paid') {
        throw new ConflictError(
          'ORDER_STATUS_CONFLICT',
          `project ${line.project.id} of order ${order.orderId} is "${result.status}" and cannot become "paid"`,
        );
      }
      await this.notifyFlow(line.id, { status: 'paid' });
    }
    await ctx.em.nativeUpdate(Order, { id: order.id }, { paymentStatus: 'Payment Complete' });
    ctx.em.clear();
    return this.find(ctx, orderId);
  }

  /**
   * A verified printer event: reaches the running fulfilment, or applies directly once it ended.
   * Crosses tenants: a printer serves every client. The line is the one the event names by job id
   * and, when echoed, our job key or the shop's order id, else the latest sent under that id
   * (printer-job-match.ts); it decides the tenant the status move then runs as. An event about an
   * older, ended job whose id was reissued changes nothing.
   */
  async receivePrinterEvent(
    psp: string,
    event: PrinterEventJob & { status: PrinterEventStatus; trackingUrl?: string; parcels?: Parcel[] },
  ): Promise<{ status: string }> {
    const em = this.deps.em.fork();
    const { line, ignore } = await lineOfPrinterEvent(em, psp, event);
    if (ignore) return { status: line.status };
    scopeToOwnerOf(em, line.order);
    const update = { status: event.status, trackingUrl: event.trackingUrl, parcels: event.parcels };
    const delivered = await this.notifyFlow(line.id, update);
    if (!delivered) {
      const result = await moveOrderLine(em, line.id, update);
      return { status: result.status };
    }
    return { status: event.status };
  }

  /**
   * A print partner's state of a job, from a callback verified for one shop's partner account
   * (src/services/partners). The line is the one our job key names within that shop and
   * environment, and only while the partner's job id is the one the line was sent under: a job the
   * line no longer holds (a late acceptance after failover, an order the partner reissued) changes
   * nothing. The status moves along the transition table like any printer event, so a late or
   * duplicate callback never moves the line back; parcels alone update the tracking.
   */
  async receivePartnerEvent(
    tenant: { clientId: string; env: Environment },
    event: { jobId: string; jobKey: string; status?: PrinterEventStatus; parcels: Parcel[]; reason?: string },
  ): Promise<{ status: string; applied: boolean }> {
    const [orderUuid, projectId] = event.jobKey.split(':');
    if (!isUuid(orderUuid) || !projectId) throw new NotFoundError('print job', event.jobKey, 'jobKey');
    const em = this.deps.em.fork();
    const line = await em.findOne(
      OrderLine,
      { order: { id: orderUuid, client: tenant.clientId, env: tenant.env }, project: projectId },
      { ...ACROSS_TENANTS, populate: ['order'] },
    );
    if (!line) throw new NotFoundError('print job', event.jobKey, 'jobKey');
    if (line.printerJobId !== event.jobId) return { status: line.status, applied: false };
    scopeToOwnerOf(em, line.order);
    const parcels = event.parcels.length > 0 ? event.parcels : undefined;
    if (!event.status && !parcels) return { status: line.status, applied: false };
    const update = { status: event.status ?? line.status, ...(parcels ? { parcels } : {}) };
    const delivered = event.status ? await this.notifyFlow(line.id, update) : false;
    if (!delivered) {
      const result = await moveOrderLine(em, line.id, {
        ...update,
        ...(event.status === 'failed processing' && event.reason ? { failureReason: event.reason } : {}),
      });
      return { status: result.status, applied: true };
    }
    return { status: update.status, applied: true };
  }

  private async notifyFlow(lineId: string, update: StatusUpdate): Promise<boolean> {
    try {
      await this.deps.engine.signal(STATUS_UPDATE_SIGNAL, fulfilmentWorkflowId(lineId), update);
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
