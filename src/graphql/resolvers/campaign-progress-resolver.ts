import { Arg, Root, Subscription, Resolver } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { GraphqlContext } from '../context';
import type { StatusEventMessage } from '../../events/status-event-log';
import type { CampaignCounts } from '../../services/campaigns/campaign-progress';
import { CAMPAIGN_SUBJECT } from '../../domain/status-subjects';
import { subscribeOwnSubjectEvents } from '../tenant-events';
import type { CampaignProgressReport } from '../../services/campaigns/campaign-service';
import { CampaignProgress } from '../types/campaign';

const FINAL = ['completed', 'failed'];

/**
 * The campaign as it is now, then every change of its status and counts, until it is completed
 * or failed. Listening starts before the snapshot is read, so nothing falls in between; an unknown
 * (or another tenant's) id fails here, before the stream starts, as a NOT_FOUND error.
 */
async function campaignProgress(context: GraphqlContext, id: string): Promise<AsyncGenerator<CampaignProgressReport>> {
  const { ctx, services } = context;
  const events = subscribeOwnSubjectEvents(context, CAMPAIGN_SUBJECT, id);
  try {
    return follow(events, await services.campaigns.progress(ctx, id));
  } catch (error) {
    await events.return?.();
    throw error;
  }
}

async function* follow(
  events: AsyncIterableIterator<StatusEventMessage>,
  now: CampaignProgressReport,
): AsyncGenerator<CampaignProgressReport> {
  try {
    yield now;
    if (FINAL.includes(now.status)) return;
    for await (const event of events) {
      if (event.sequence <= now.sequence) continue;
      yield reportOf(event);
      if (FINAL.includes(event.status)) return;
    }
  } finally {
    await events.return?.();
  }
}

function reportOf(event: StatusEventMessage): CampaignProgressReport {
  const { reason, ...counts } = event.detail as unknown as CampaignCounts & { reason?: string };
  return {
    campaignId: event.subjectId,
    status: event.status,
    reason: reason ?? null,
    counts,
    sequence: event.sequence,
    occurredAt: new Date(event.occurredAt),
  };
}

@Resolver()
export class CampaignProgressResolver {
  @Subscription(() => CampaignProgress, {
    description:
      "A campaign's status and counts now, then as they change (at most about twice a second), until it completes or fails",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, { id: string }, GraphqlContext>) =>
      campaignProgress(context, args.id),
  })
  campaignProgress(@Root() report: CampaignProgressReport, @Arg('id', () => String) _id: string): CampaignProgress {
    return report;
  }
}
