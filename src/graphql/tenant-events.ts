import type { EventAudience } from '../events/status-event-bus';
import type { StatusEventMessage } from '../events/status-event-log';
import type { GraphqlContext } from './context';
import type { EventFeed } from '../events/event-feed';

/** The subscriber's own client and environment: the only events the bus hands its listeners. */
export function tenantAudience(context: GraphqlContext): EventAudience {
  const { tenant } = context.ctx;
  return { clientId: tenant.clientId, env: tenant.env };
}

/**
 * The committed status events of the subscriber's own client and environment that `accept` takes.
 * Every subscription listens through here or with `tenantAudience`, so none can hear another
 * shop's or partition's events.
 */
export function subscribeTenantEvents(
  context: GraphqlContext,
  accept: (event: StatusEventMessage) => boolean,
): EventFeed<StatusEventMessage> {
  return context.bus.subscribe(tenantAudience(context), accept);
}

/** The committed status events of one subject of the subscriber's own client and environment. */
export function subscribeOwnSubjectEvents(
  context: GraphqlContext,
  subjectType: string,
  subjectId: string,
): EventFeed<StatusEventMessage> {
  return context.bus.subscribe({ ...tenantAudience(context), subject: { subjectType, subjectId } }, () => true);
}
