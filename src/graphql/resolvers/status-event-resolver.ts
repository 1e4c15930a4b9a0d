import { Arg, Int, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { StatusEvent } from '../types/status-event';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeTenantEvents } from '../tenant-events';
import { refuseResumeOfSeveralSubjects, subscribeSubjectEvents } from '../resumable-events';

interface StatusEventArgs {
  subjectType?: string | null;
  subjectId?: string | null;
  afterSequence?: number | null;
}

@Resolver()
export class StatusEventResolver {
  @Subscription(() => StatusEvent, {
    description:
      'Every committed status change of this client and environment, optionally of one subject. With subjectType, subjectId and afterSequence it first replays the events after that sequence, then goes on live',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, StatusEventArgs, GraphqlContext>) => {
      if (args.subjectType && args.subjectId) {
        return subscribeSubjectEvents(
          context,
          { subjectType: args.subjectType, subjectId: args.subjectId },
          args.afterSequence,
        );
      }
      refuseResumeOfSeveralSubjects(args.afterSequence, 'subjectType and subjectId');
      return subscribeTenantEvents(
        context,
        (event) =>
          (!args.subjectType || event.subjectType === args.subjectType) &&
          (!args.subjectId || event.subjectId === args.subjectId),
      );
    },
  })
  statusEvents(
    @Root() event: StatusEventMessage,
    @Arg('subjectType', () => String, { nullable: true }) _subjectType?: string | null,
    @Arg('subjectId', () => String, { nullable: true }) _subjectId?: string | null,
    @Arg('afterSequence', () => Int, {
      nullable: true,
      description: 'The last sequence the subscriber received: later events are replayed first',
    })
    _afterSequence?: number | null,
  ): StatusEvent {
    return { ...event, occurredAt: new Date(event.occurredAt) };
  }
}
