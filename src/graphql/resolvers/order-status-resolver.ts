import { Arg, Int, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { OrderStatusEvent } from '../types/order';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeTenantEvents } from '../tenant-events';
import { ORDER_SUBJECT, orderLineSubjectId } from '../../domain/status-subjects';
import { ValidationError } from '../../domain/errors';
import { refuseResumeOfSeveralSubjects, subscribeSubjectEvents } from '../resumable-events';

interface Args {
  orderId?: string | null;
  projectId?: string | null;
  afterSequence?: number | null;
}

@Resolver()
export class OrderStatusResolver {
  @Subscription(() => OrderStatusEvent, {
    description:
      "Fulfilment status changes of one order line (orderId and projectId), one order, or every order of this client: the dashboard feed. With orderId, projectId and afterSequence it first replays the line's events after that sequence",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, Args, GraphqlContext>) => {
      if (args.projectId && !args.orderId) throw ValidationError.field('orderId', 'is required with projectId');
      if (args.orderId && args.projectId) {
        return subscribeSubjectEvents(
          context,
          { subjectType: ORDER_SUBJECT, subjectId: orderLineSubjectId(args.orderId, args.projectId) },
          args.afterSequence,
        );
      }
      refuseResumeOfSeveralSubjects(args.afterSequence, 'orderId and projectId');
      return subscribeTenantEvents(
        context,
        (event) => event.subjectType === ORDER_SUBJECT && (!args.orderId || event.detail.orderId === args.orderId),
      );
    },
  })
  orderStatusChanged(
    @Root() event: StatusEventMessage,
    @Arg('orderId', () => String, { nullable: true }) _orderId?: string | null,
    @Arg('projectId', () => String, { nullable: true, description: 'With orderId: one line of the order' }) _projectId?:
      | string
      | null,
    @Arg('afterSequence', () => Int, {
      nullable: true,
      description: 'The last sequence the subscriber received: later events are replayed first',
    })
    _afterSequence?: number | null,
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
