import { Arg, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { StatusEvent } from '../types/status-event';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeTenantEvents } from '../tenant-events';

interface StatusEventArgs {
  subjectType?: string | null;
  subjectId?: string | null;
}

@Resolver()
export class StatusEventResolver {
  @Subscription(() => StatusEvent, {
    description: 'Every committed status change of this client and environment, optionally of one subject',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, StatusEventArgs, GraphqlContext>) =>
      subscribeTenantEvents(
        context,
        (event) => (!args.subjectType || event.subjectType === args.subjectType) && (!args.subjectId || event.subjectId === args.subjectId),
      ),
  })
  statusEvents(
    @Root() event: StatusEventMessage,
    @Arg('subjectType', () => String, { nullable: true }) _subjectType?: string | null,
    @Arg('subjectId', () => String, { nullable: true }) _subjectId?: string | null,
  ): StatusEvent {
    return { ...event, occurredAt: new Date(event.occurredAt) };
  }
}
