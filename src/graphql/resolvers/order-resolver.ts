import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Order as OrderEntity } from '../../services/orders/order-service';
import { IdempotencyKeyArg } from '../idempotency-key';
import type { GraphqlContext } from '../context';
import { plainInput } from '../plain-input';
import {
  ClaimReason,
  ClientEventPage,
  EcommerceOrderStatus,
  Order,
  OrderActionAvailability,
  OrderConnection,
  OrderUserInput,
  PrintOrderInput,
  PrintOrderPayload,
  ShippingChoiceInput,
} from '../types/order';
import { openHold, type ActionAvailability } from '../../services/orders/order-actions';
import type { LineRouting } from '../types/print-routing';
import { WEBHOOK_EVENTS } from '../../domain/webhook-delivery-status';
import type { EcommerceStatus } from '../../domain/order-status';
import { DEFAULT_ORDER_PAGE_SIZE } from '../../domain/limits';
import { printFilesOf } from '../../services/orders/print-files';
import { lineRoutingViewOf, orderLineSummaryOf } from '../../services/orders/order-view';
import type { AppServices } from '../../services/app-services';
import type { ClaimReason as ClaimReasonValue } from '../../domain/order-claim';

@Resolver()
export class OrderResolver {
  @Mutation(() => PrintOrderPayload, { description: 'Print a paid order (REST: /v2/print); idempotent on orderId' })
  async printOrder(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => PrintOrderInput) input: PrintOrderInput,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<PrintOrderPayload> {
    const { message, order } = await services.orders.print(ctx, plainInput(input));
    return { message, order: orderView(await services.orders.find(ctx, order.orderId), services) };
  }

  @Query(() => Order, { description: 'One order of this client' })
  async order(@Ctx() { ctx, services }: GraphqlContext, @Arg('orderId', () => String) orderId: string): Promise<Order> {
    return orderView(await services.orders.find(ctx, orderId), services);
  }

  @Query(() => OrderConnection, {
    description: "Orders, newest first; a user's when email is given; the filters of GET /v2/order/list",
  })
  async orders(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('email', () => String, { nullable: true }) email?: string | null,
    @Arg('first', () => Int, { defaultValue: DEFAULT_ORDER_PAGE_SIZE }) first = DEFAULT_ORDER_PAGE_SIZE,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('status', () => String, { nullable: true, description: 'Orders with a line in this order status' }) status?:
      | string
      | null,
    @Arg('createdAfter', () => String, {
      nullable: true,
      description: 'ISO 8601 date or date-time: created at or after',
    })
    createdAfter?: string | null,
    @Arg('createdBefore', () => String, { nullable: true, description: 'ISO 8601 date or date-time: created before' })
    createdBefore?: string | null,
    @Arg('orderId', () => String, { nullable: true, description: 'The order with this id (yours only)' })
    orderId?: string | null,
    @Arg('customer', () => String, {
      nullable: true,
      description: 'Each word found, in any case, in the first name, last name or e-mail',
    })
    customer?: string | null,
  ): Promise<OrderConnection> {
    const page = await services.orders.page(ctx, {
      email: email ?? undefined,
      first,
      after: after ?? undefined,
      status: status ?? undefined,
      createdAfter: createdAfter ?? undefined,
      createdBefore: createdBefore ?? undefined,
      orderId: orderId ?? undefined,
      customer: customer ?? undefined,
    });
    return {
      edges: page.items.map((order) => ({ node: orderView(order, services), cursor: page.from(order) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @Mutation(() => Order, { description: 'The payment of an order placed with paymentPending arrived' })
  async confirmPayment(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
  ): Promise<Order> {
    return orderView(await services.orders.confirmPayment(ctx, orderId), services);
  }

  @Query(() => [OrderActionAvailability], {
    description: 'Each order action with whether it is available now and why not (REST: GET /v2/order/actions)',
  })
  async orderActions(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
  ): Promise<OrderActionAvailability[]> {
    return (await services.orders.actions(ctx, orderId)).actions.map(actionOf);
  }

  @Mutation(() => Order, {
    description:
      'Cancel the order, or the listed projects of it, until the printer starts production (REST: POST /v2/order/cancel)',
  })
  async cancelOrder(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('projectIds', () => [String], {
      nullable: true,
      description: 'Only these lines; the whole order when left out',
    })
    projectIds?: string[] | null,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<Order> {
    return orderView(await services.orders.cancel(ctx, { orderId, ...(projectIds ? { projectIds } : {}) }), services);
  }

  @Mutation(() => Order, {
    description:
      'Correct the recipient before the print job is sent, checked as printOrder checks it (REST: POST /v2/order/update-recipient)',
  })
  async updateOrderRecipient(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('user', () => OrderUserInput) user: OrderUserInput,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<Order> {
    return orderView(await services.orders.updateRecipient(ctx, { orderId, user: plainInput(user) }), services);
  }

  @Mutation(() => Order, {
    description: 'Change the shipping method before the print job is sent (REST: POST /v2/order/update-shipping)',
  })
  async updateOrderShipping(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('shipping', () => ShippingChoiceInput) shipping: ShippingChoiceInput,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<Order> {
    return orderView(
      await services.orders.updateShipping(ctx, { orderId, shipping: { method: shipping.method } }),
      services,
    );
  }

  @Mutation(() => Order, {
    description:
      'Claim delivered lines (all when projectIds is left out) as damaged, misprinted or lost, within the claim window: answers the remake, a new order at no charge that prints the same files again (REST: POST /v2/order/claim)',
  })
  async claimOrder(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('reason', () => ClaimReason) reason: ClaimReasonValue,
    @Arg('projectIds', () => [String], {
      nullable: true,
      description: 'Only these lines; every line of the order when left out',
    })
    projectIds?: string[] | null,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
    @Arg('photos', () => [String], { nullable: true, description: 'URLs of evidence photos, kept as sent' })
    photos?: string[] | null,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<Order> {
    const remake = await services.orders.claim(ctx, {
      orderId,
      reason,
      ...(projectIds ? { projectIds } : {}),
      ...(note != null ? { note } : {}),
      ...(photos ? { photos } : {}),
    });
    return orderView(remake, services);
  }

  @Query(() => ClientEventPage, {
    description: `This client's events, oldest first after the event \`after\` (REST: GET /v2/events). Types: ${WEBHOOK_EVENTS.join(', ')}`,
  })
  async events(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('after', () => String, { nullable: true, description: 'The id of the last event you have' }) after?:
      | string
      | null,
    @Arg('types', () => [String], { nullable: true }) types?: string[] | null,
    @Arg('orderId', () => String, { nullable: true }) orderId?: string | null,
    @Arg('first', () => Int, { nullable: true, description: 'At most 100' }) first?: number | null,
  ): Promise<ClientEventPage> {
    const page = await services.webhooks.events(ctx, {
      after: after ?? undefined,
      types: types ?? undefined,
      orderId: orderId ?? undefined,
      limit: first ?? undefined,
      limitPath: 'first',
    });
    return {
      events: page.data.map((e) => ({ ...e, occurredAt: new Date(e.occurredAt) })),
      cursor: page.cursor ?? null,
    };
  }

  @Mutation(() => Order, {
    description: 'Cancel or refund an order, or one project of it (cancel: the same as cancelOrder)',
  })
  async setOrderStatus(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('orderId', () => String) orderId: string,
    @Arg('status', () => EcommerceOrderStatus) status: EcommerceStatus,
    @Arg('projectId', () => String, { nullable: true }) projectId?: string | null,
  ): Promise<Order> {
    return orderView(
      await services.orders.setStatus(ctx, { orderId, status, projectId: projectId ?? undefined }),
      services,
    );
  }
}

function orderView(order: OrderEntity, services: AppServices): Order {
  const { files } = services;
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
    telephone: order.telephone,
    shippingAddress: order.shippingAddress,
    actions: services.orders.availability(order).map(actionOf),
    createdAt: order.createdAt,
    holdUntil: holdOf(order),
    lines: order.lines.getItems().map((line) => ({
      ...orderLineSummaryOf(line),
      statusChangedAt: line.statusChangedAt,
      failureReason: line.status === 'failed processing' ? (line.failureReason ?? null) : null,
      tracking: line.trackingUrl,
      parcels: line.parcels.map((p) => ({
        carrier: p.carrier ?? null,
        trackingNumber: p.trackingNumber ?? null,
        trackingUrl: p.trackingUrl ?? null,
      })),
      shippedAt: line.shippedAt ?? null,
      deliveredAt: line.deliveredAt ?? null,
      pageCount: line.pageCount,
      warnings: line.warnings.map((w) => ({ ...w, page: String(w.page) })),
      printFiles: printFilesOf(line, files) ?? null,
      routing: routingOf(line),
    })),
    remakeOf: order.remakeOf?.orderId ?? null,
    claim: order.claim
      ? { ...order.claim, note: order.claim.note ?? null, createdAt: new Date(order.claim.createdAt) }
      : null,
    remakes: order.remakes.getItems().map((remake) => remake.orderId),
  };
}

function actionOf(a: ActionAvailability): OrderActionAvailability {
  return { ...a, reason: a.reason ?? null, until: a.until ?? null };
}

function holdOf(order: OrderEntity): Date | null {
  return openHold(order.lines.getItems(), order.holdUntil) ?? null;
}

function routingOf(line: Parameters<typeof lineRoutingViewOf>[0]): LineRouting | null {
  const view = lineRoutingViewOf(line);
  return view ? { ...view, decisions: view.decisions.map((d) => ({ ...d, at: new Date(d.at) })) } : null;
}
