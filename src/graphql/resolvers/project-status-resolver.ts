import { Arg, Int, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { ProjectStatusEvent } from '../types/project';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeTenantEvents } from '../tenant-events';
import { refuseResumeOfSeveralSubjects, subscribeSubjectEvents } from '../resumable-events';
import { PROJECT_SUBJECT } from '../../domain/status-subjects';
import { userKeyOf } from '../../services/projects/user-identity';
import { ValidationError } from '../../domain/errors';

interface Args {
  projectId?: string | null;
  user?: string | null;
  afterSequence?: number | null;
}

@Resolver()
export class ProjectStatusResolver {
  @Subscription(() => ProjectStatusEvent, {
    description:
      "Status changes of one project, or of all a user's projects, as they commit. With projectId and afterSequence it first replays the project's events after that sequence",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, Args, GraphqlContext>) => {
      if (!args.projectId === !args.user)
        throw ValidationError.field('projectId', 'give exactly one of projectId and user');
      if (args.projectId)
        return subscribeSubjectEvents(
          context,
          { subjectType: PROJECT_SUBJECT, subjectId: args.projectId },
          args.afterSequence,
        );
      refuseResumeOfSeveralSubjects(args.afterSequence, 'projectId');
      const user = args.user ? userKeyOf(args.user, 'user') : undefined;
      return subscribeTenantEvents(
        context,
        (event) =>
          event.subjectType === PROJECT_SUBJECT &&
          (args.projectId ? event.subjectId === args.projectId : event.detail.user === user),
      );
    },
  })
  projectStatusChanged(
    @Root() event: StatusEventMessage,
    @Arg('projectId', () => String, { nullable: true }) _projectId?: string | null,
    @Arg('user', () => String, { nullable: true }) _user?: string | null,
    @Arg('afterSequence', () => Int, {
      nullable: true,
      description: 'The last sequence the subscriber received: later events are replayed first',
    })
    _afterSequence?: number | null,
  ): ProjectStatusEvent {
    return {
      projectId: event.subjectId,
      user: String(event.detail.user),
      status: { project: event.status, photos: String(event.detail.photos) },
      sequence: event.sequence,
      occurredAt: new Date(event.occurredAt),
    };
  }
}
