import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../domain/errors';
import { createSafeFetch, type SafeFetch } from '../../outbound/safe-fetch';
import { PartnerCallbackMalformed, PartnerCallbackRefused, type PartnerCallback } from '../../printers/partner-api';
import { PrinterRejectedJob } from '../../printers/printer';
import type { FileStore } from '../../storage/file-store';
import type { RequestContext } from '../context';
import type { OrderService } from '../orders/order-service';
import {
  accountOfCallback,
  listPartnerAccounts,
  removePartnerAccount,
  setPartnerAccount,
  type PartnerAccountView,
  type PartnerTarget,
  type SetPartnerAccountInput,
} from './partner-accounts';
import { createPartnerPrinters, type PartnerPrinters, type PartnerPrintersConfig } from './partner-printers';

export interface PartnerServiceDeps {
  config: PartnerPrintersConfig & Pick<Config, 'allowLoopbackUrls'>;
  em: EntityManager;
  pepper: string;
  files: FileStore;
  orders: OrderService;
  fetch?: SafeFetch;
}

/**
 * Print partners as a shop uses them: its accounts (per environment, credentials sealed), the
 * printers built from them (`printers.partnerPrinterFor`, for routing), and the partners'
 * callbacks, verified per partner and applied to the order line they are about.
 */
export class PartnerService {
  readonly printers: PartnerPrinters;

  constructor(private readonly deps: PartnerServiceDeps) {
    const { config, em, pepper, files } = deps;
    const fetch =
      deps.fetch ?? createSafeFetch({ allowLoopback: config.allowLoopbackUrls, userAgent: 'photobook-service/2' });
    this.printers = createPartnerPrinters(config, { em, pepper, fetch, files });
  }

  /** The shop's own accounts (GraphQL): the request's tenant. */
  list(ctx: RequestContext): Promise<PartnerAccountView[]> {
    return listPartnerAccounts(ctx.em, this.deps.pepper, this.deps.config.publicUrl, targetOf(ctx));
  }

  set(ctx: RequestContext, input: SetPartnerAccountInput): Promise<PartnerAccountView> {
    return this.setFor(ctx.em, targetOf(ctx), input);
  }

  remove(ctx: RequestContext, partner: string): Promise<void> {
    return removePartnerAccount(ctx.em, targetOf(ctx), partner);
  }

  /** The operator's CLI, naming the client. */
  setFor(em: EntityManager, target: PartnerTarget, input: SetPartnerAccountInput): Promise<PartnerAccountView> {
    return setPartnerAccount(em, this.deps.pepper, this.deps.config.publicUrl, target, input);
  }

  listFor(em: EntityManager, target: PartnerTarget): Promise<PartnerAccountView[]> {
    return listPartnerAccounts(em, this.deps.pepper, this.deps.config.publicUrl, target);
  }

  /**
   * A partner's callback at `/v2/printers/{partner}/callbacks/{token}`: the token finds the account
   * (unknown: 401), the partner's printer checks the callback as the partner documents it (Lulu's
   * HMAC; Prodigi and Gelato read back from their API) and answers the job's state, which moves the
   * shop's order line. Answers the line's status after it.
   */
  async receiveCallback(
    partner: string,
    token: string,
    callback: PartnerCallback,
  ): Promise<{ status: string; applied: boolean }> {
    const em = this.deps.em.fork();
    const account = await accountOfCallback(em, partner, token);
    if (!account) throw new UnauthenticatedError(`no ${partner} account has this callback URL`, 'token');
    let state: Awaited<ReturnType<ReturnType<PartnerPrinters['printerOf']>['receiveCallback']>>;
    try {
      state = await this.printers.printerOf(account).receiveCallback(callback);
    } catch (error) {
      if (error instanceof PartnerCallbackRefused) throw new UnauthenticatedError(error.message, 'callback');
      if (error instanceof PartnerCallbackMalformed || error instanceof PrinterRejectedJob)
        throw ValidationError.field('(body)', error.message, 'MALFORMED_EVENT');
      throw error;
    }
    try {
      return await this.deps.orders.receivePartnerEvent({ clientId: account.client.id, env: account.env }, state);
    } catch (error) {
      // The partner's job is not one of this shop's lines: say so without telling whose it might be.
      if (error instanceof NotFoundError) throw new NotFoundError(`${partner} job`, state.jobId, 'jobId');
      throw error;
    }
  }
}

function targetOf(ctx: RequestContext): PartnerTarget {
  return { clientId: ctx.tenant.clientId, env: ctx.tenant.env };
}
