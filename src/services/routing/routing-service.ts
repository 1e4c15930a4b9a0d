import type { PrintRouting } from '../../domain/print-routing';
import type { RequestContext } from '../context';
import { printRoutingOf, setPrintRouting } from './print-settings';

/** A shop's print routing and hold window, as the transports read and set them for the caller's environment. */
export class RoutingService {
  show(ctx: RequestContext): Promise<PrintRouting> {
    return printRoutingOf(ctx.em, ctx.tenant);
  }

  set(ctx: RequestContext, input: unknown): Promise<PrintRouting> {
    return setPrintRouting(ctx.em, ctx.tenant, input);
  }
}
