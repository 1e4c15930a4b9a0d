import type { StatusEventMessage } from '../events/status-event-log';
import type { GraphqlContext } from './context';

/** Whether an event is of the subscriber's own client and environment. */
export function isOwnEvent(context: GraphqlContext, event: StatusEventMessage): boolean {
  const { tenant } = context.ctx;
  return event.clientId === tenant.clientId && event.env === tenant.env;
}

/**
 * The committed status events of the subscriber's own client and environment that `accept` takes.
 * Every subscription listens through here or `isOwnEvent`, so none can hear another shop's or
 * partition's events.
 */
export function subscribeTenantEvents(context: GraphqlContext, accept: (event: StatusEventMessage) => boolean): AsyncIterableIterator<StatusEventMessage> {
  return context.bus.subscribe((event) => isOwnEvent(context, event) && accept(event));
}
