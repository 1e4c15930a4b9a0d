import { Arg, Int, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import { subscribeSubjectEvents } from '../resumable-events';
import { BOOK_SUBJECT } from '../../domain/status-subjects';
import { BookRevision } from '../types/editor';

interface Args {
  projectId: string;
  afterSequence?: number | null;
}

@Resolver()
export class BookRevisionResolver {
  @Subscription(() => BookRevision, {
    description:
      "Each new revision of a project's book as it commits (an edit, undo or redo, from any editor or app): what keeps two editors of one book in step. With afterSequence it first replays the revisions after that sequence",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, Args, GraphqlContext>) =>
      subscribeSubjectEvents(context, { subjectType: BOOK_SUBJECT, subjectId: args.projectId }, args.afterSequence),
  })
  bookRevised(
    @Root() event: StatusEventMessage,
    @Arg('projectId', () => String) _projectId: string,
    @Arg('afterSequence', () => Int, {
      nullable: true,
      description: 'The last sequence the subscriber received: later revisions are replayed first',
    })
    _afterSequence?: number | null,
  ): BookRevision {
    return {
      projectId: event.subjectId,
      revision: Number(event.detail.revision),
      edit: String(event.detail.edit),
      sequence: event.sequence,
      occurredAt: new Date(event.occurredAt),
    };
  }
}
