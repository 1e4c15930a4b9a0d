import type { RequestContext } from '../services/context';
import type { AppServices } from '../services/app-services';
import type { StatusEventBus } from '../events/status-event-bus';
import type { Loaders } from './loaders';

/** What every resolver receives: the caller's service context and the shared services. */
export interface GraphqlContext {
  ctx: RequestContext;
  services: AppServices;
  bus: StatusEventBus;
  loaders: Loaders;
  /** When the request arrived (ms since the epoch; a socket's operation: when it was subscribed). */
  receivedAt: number;
}
