import { Arg, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { StatusEvent } from '../types/status-event';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';

interface StatusEventArgs {
  subjectType?: string | null;
  subjectId?: string | null;
}

@Resolver()
export class StatusEventResolver {
  @Subscription(() => StatusEvent, {
    description: 'Every committed status change of this client and environment, optionally of one subject',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, StatusEventArgs, GraphqlContext>) => {
      const { tenant } = context.ctx;
      return context.bus.subscribe(
        (event) =>
          event.clientId === tenant.clientId &&
          event.env === tenant.env &&
          (!args.subjectType || event.subjectType === args.subjectType) &&
          (!args.subjectId || event.subjectId === args.subjectId),
      );
    },
  })
  statusEvents(
    @Root() event: StatusEventMessage,
    @Arg('subjectType', () => String, { nullable: true }) _subjectType?: string | null,
    @Arg('subjectId', () => String, { nullable: true }) _subjectId?: string | null,
  ): StatusEvent {
    return { ...event, occurredAt: new Date(event.occurredAt) };
  }
}
