import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderLine } from '../../db/entities';
import { ACROSS_TENANTS, scopeToOwnerOf } from '../../db/tenant-filter';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { STATUS_UPDATE_SIGNAL, WorkflowNotFoundError, fulfilmentWorkflowId, type StatusUpdate } from '../../domain/flows';
import { printOrder } from './print-order';
import type { PrintInput } from './print-input';
import { orderHistory } from './order-history';
import { moveOrderLine } from './order-line-status';
import { ECOMMERCE_STATUSES, type OrderStatus } from '../../domain/order-status';
import { normaliseEmail } from '../projects/user-identity';
import { MAX_ORDER_PAGE_SIZE } from '../../domain/limits';
import { assertIssuedCursor } from '../cursors';
import { printFilesOf, type OrderPrintFiles } from './print-files';
import type { Parcel } from '../../domain/parcel';

/** Orders: placing them, reading them, and the status changes that come from outside. */
export class OrderService {
  constructor(private readonly deps: ProjectServiceDeps & { em: EntityManager }) {}

  print(ctx: RequestContext, input: PrintInput) {
    return printOrder(ctx, this.deps, input);
  }

  history(ctx: RequestContext, query: { email: string; language: string; cursor?: string }) {
    return orderHistory(ctx, this.deps.files, this.deps.config.timezone, query);
  }

  async find(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await ctx.em.findOne(Order, { orderId }, { populate: ['lines', 'lines.project'] });
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

  /** GraphQL `orders`: newest first, keyset-paged; `after` is a cursor this service issued. */
  async page(ctx: RequestContext, options: { email?: string; first: number; after?: string }) {
    if (!Number.isInteger(options.first) || options.first < 1 || options.first > MAX_ORDER_PAGE_SIZE) throw ValidationError.field('first', `must be from 1 to ${MAX_ORDER_PAGE_SIZE}`);
    if (options.after !== undefined) assertIssuedCursor(options.after, 'after');
    return ctx.em.findByCursor(
      Order,
      options.email ? { email: normaliseEmail(options.email, 'email') } : {},
      { first: options.first, after: options.after, orderBy: { createdAt: 'desc', id: 'desc' }, populate: ['lines', 'lines.project'], includeCount: false },
    );
  }

  /** Cancel or refund all lines of an order, or one project's line; refused where the table forbids it. */
  async setStatus(ctx: RequestContext, input: { orderId: string; projectId?: string; status: string }): Promise<Order> {
    if (!(ECOMMERCE_STATUSES as readonly string[]).includes(input.status)) {
      throw ValidationError.field('status', `must be one of ${ECOMMERCE_STATUSES.join(', ')}`);
    }
    const order = await this.find(ctx, input.orderId);
    const lines = order.lines.getItems().filter((l) => !input.projectId || l.project.id === input.projectId);
    if (lines.length === 0) throw new NotFoundError('project of order', input.projectId ?? '', 'projectId');
    for (const line of lines) {
      const result = await moveOrderLine(ctx.em.fork(), line.id, { status: input.status as OrderStatus });
      if (!result.moved && result.status !== input.status) {
        throw new ConflictError('ORDER_STATUS_CONFLICT', `project ${line.project.id} of order ${order.orderId} is "${result.status}" and cannot become "${input.status}"`);
      }
      await this.notifyFlow(line.id, { status: input.status });
    }
    ctx.em.clear();
    return this.find(ctx, input.orderId);
  }

  /** The payment of an order placed with `paymentPending` arrived: its waiting lines go on. */
  async confirmPayment(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await this.find(ctx, orderId);
    for (const line of order.lines.getItems()) {
      const result = await moveOrderLine(ctx.em.fork(), line.id, { status: 'paid' });
      if (!result.moved && result.status !== 'paid') {
        throw new ConflictError('ORDER_STATUS_CONFLICT', `project ${line.project.id} of order ${order.orderId} is "${result.status}" and cannot become "paid"`);
      }
      await this.notifyFlow(line.id, { status: 'paid' });
    }
    await ctx.em.nativeUpdate(Order, { id: order.id }, { paymentStatus: 'Payment Complete' });
    ctx.em.clear();
    return this.find(ctx, orderId);
  }

  /**
   * A verified printer event: reaches the running fulfilment, or applies directly once it ended.
   * Crosses tenants: a printer serves every client, and its job id (unique per psp) is all it
   * names. The line found decides the tenant the status move then runs as.
   */
  async receivePrinterEvent(psp: string, event: { jobId: string; status: string; trackingUrl?: string; parcels?: Parcel[] }): Promise<{ status: string }> {
    const em = this.deps.em.fork();
    const line = await em.findOne(OrderLine, { psp, printerJobId: event.jobId }, { populate: ['order'], ...ACROSS_TENANTS });
    if (!line) throw new NotFoundError(`print job of ${psp}`, event.jobId, 'jobId');
    scopeToOwnerOf(em, line.order);
    const update = { status: event.status, trackingUrl: event.trackingUrl, parcels: event.parcels };
    const delivered = await this.notifyFlow(line.id, update);
    if (!delivered) {
      const result = await moveOrderLine(em, line.id, { ...update, status: event.status as OrderStatus });
      return { status: result.status };
    }
    return { status: event.status };
  }

  private async notifyFlow(lineId: string, update: StatusUpdate): Promise<boolean> {
    try {
      await this.deps.engine.signal(fulfilmentWorkflowId(lineId), STATUS_UPDATE_SIGNAL, update);
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
