import type { StatusEventMessage } from '../events/status-event-log';
import type { GraphqlContext } from './context';

/**
 * The committed status events of the subscriber's own client and environment that `accept` takes.
 * Every subscription listens through here, so none can hear another shop's or partition's events.
 */
export function subscribeTenantEvents(context: GraphqlContext, accept: (event: StatusEventMessage) => boolean): AsyncIterableIterator<StatusEventMessage> {
  const { tenant } = context.ctx;
  return context.bus.subscribe((event) => event.clientId === tenant.clientId && event.env === tenant.env && accept(event));
}
