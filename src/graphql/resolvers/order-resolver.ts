import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Order as OrderEntity } from '../../db/entities';
import { IdempotencyKeyArg } from '../idempotency-key';
import type { GraphqlContext } from '../context';
import { EcommerceOrderStatus, Order, OrderConnection, PrintOrderInput, PrintOrderPayload } from '../types/order';
import { displayStatusOf, type EcommerceStatus } from '../../domain/order-status';
import { DEFAULT_ORDER_PAGE_SIZE } from '../../domain/limits';
import { printFilesOf } from '../../services/orders/print-files';
import type { FileStore } from '../../storage/file-store';

@Resolver()
export class OrderResolver {
  @Mutation(() => PrintOrderPayload, { description: 'Print a paid order (REST: /v2/print); idempotent on orderId' })
  async printOrder(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => PrintOrderInput) input: PrintOrderInput,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<PrintOrderPayload> {
    const { message, order } = await services.orders.print(ctx, JSON.parse(JSON.stringify(input)));
    return { message, order: orderView(await services.orders.find(ctx, order.orderId), services.files) };
  }

  @Query(() => Order, { description: 'One order of this client' })
  async order(@Ctx() { ctx, services }: GraphqlContext, @Arg('orderId', () => String) orderId: string): Promise<Order> {
    return orderView(await services.orders.find(ctx, orderId), services.files);
  }

  @Query(() => OrderConnection, { description: "Orders, newest first; a user's when email is given" })
  async orders(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('email', () => String, { nullable: true }) email?: string | null,
    @Arg('first', () => Int, { defaultValue: DEFAULT_ORDER_PAGE_SIZE }) first = DEFAULT_ORDER_PAGE_SIZE,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<OrderConnection> {
    const page = await services.orders.page(ctx, { email: email ?? undefined, first, after: after ?? undefined });
    return {
      edges: page.items.map((order) => ({ node: orderView(order, services.files), cursor: page.from(order) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @Mutation(() => Order, { description: 'The payment of an order placed with paymentPending arrived' })
  async confirmPayment(@Ctx() { ctx, services }: GraphqlContext, @Arg('orderId', () => String) orderId: string): Promise<Order> {
    return orderView(await services.orders.confirmPayment(ctx, orderId), services.files);
  }

  @Mutation(() => Order, { description: 'Cancel or refund an order, or one project of it' })
  async setOrderStatus(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('status', () => EcommerceOrderStatus) status: EcommerceStatus,
    @Arg('projectId', () => String, { nullable: true }) projectId?: string | null,
  ): Promise<Order> {
    return orderView(await services.orders.setStatus(ctx, { orderId, status, projectId: projectId ?? undefined }), services.files);
  }
}

export function orderView(order: OrderEntity, files: FileStore): Order {
  return {
    orderId: order.orderId,
    email: order.email,
    currency: order.currency,
    subTotal: order.subTotal,
    shippingCost: order.shippingCost,
    shippingMethod: order.shippingMethod,
    shippingLevel: order.shippingLevel,
    quoteId: order.quoteId,
    warnings: order.warnings,
    couponCode: order.couponCode,
    couponValue: order.couponValue,
    grandTotal: order.grandTotal,
    paymentStatus: order.paymentStatus,
    firstName: order.firstName,
    lastName: order.lastName,
    shippingAddress: order.shippingAddress,
    createdAt: order.createdAt,
    lines: order.lines.getItems().map((line) => ({
      projectId: line.project.id,
      title: line.title,
      sku: line.sku,
      psp: line.psp,
      quantity: line.quantity,
      lineItemTotal: line.lineItemTotal,
      status: line.status,
      displayStatus: displayStatusOf(line.status),
      statusChangedAt: line.statusChangedAt,
      tracking: line.trackingUrl,
      pageCount: line.pageCount,
      warnings: line.warnings.map((w) => ({ ...w, page: String(w.page) })),
      printFiles: printFilesOf(line, files) ?? null,
    })),
  };
}
