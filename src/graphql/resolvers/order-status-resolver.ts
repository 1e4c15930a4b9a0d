import { Arg, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { OrderStatusEvent } from '../types/order';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeTenantEvents } from '../tenant-events';
import { ORDER_SUBJECT } from '../../domain/status-subjects';

@Resolver()
export class OrderStatusResolver {
  @Subscription(() => OrderStatusEvent, {
    description: 'Fulfilment status changes of one order, or of every order of this client: the dashboard feed',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, { orderId?: string | null }, GraphqlContext>) =>
      subscribeTenantEvents(context, (event) => event.subjectType === ORDER_SUBJECT && (!args.orderId || event.detail.orderId === args.orderId)),
  })
  orderStatusChanged(
    @Root() event: StatusEventMessage,
    @Arg('orderId', () => String, { nullable: true }) _orderId?: string | null,
  ): OrderStatusEvent {
    return {
      orderId: String(event.detail.orderId),
      projectId: String(event.detail.projectId),
      status: event.status,
      tracking: (event.detail.tracking as string | undefined) ?? null,
      sequence: event.sequence,
      occurredAt: new Date(event.occurredAt),
    };
  }
}
