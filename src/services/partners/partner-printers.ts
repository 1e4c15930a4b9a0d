import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import type { PrintOutput } from '../../domain/print-output';
import type { FileStore } from '../../storage/file-store';
import { PartnerAccount } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import type { Environment } from '../../domain/environment';
import type { PrintPartner } from '../../domain/print-partners';
import type { SafeFetch } from '../../outbound/safe-fetch';
import { GelatoPrinter } from '../../printers/gelato-printer';
import { LuluPrinter } from '../../printers/lulu-printer';
import { PartnerApi, type PartnerPrinter } from '../../printers/partner-api';
import { ProdigiPrinter } from '../../printers/prodigi-printer';
import { callbackUrlOf, credentialsOf } from './partner-accounts';

/**
 * The partners' API roots: `dev` accounts talk to the sandbox, `prod` ones to the live API. Gelato
 * has no sandbox host; its `dev` orders are drafts. Only the operator may point a partner elsewhere
 * (PRINT_PARTNER_BASE_URLS, for tests and staging): a shop names no address, so a shop cannot turn
 * our outbound calls, with its credentials in them, towards a host of its choosing.
 */
const PARTNER_BASE_URLS: Record<PrintPartner, Record<Environment, string>> = {
  prodigi: { dev: 'https://api.sandbox.prodigi.com/v4.0', prod: 'https://api.prodigi.com/v4.0' },
  gelato: { dev: 'https://order.gelatoapis.com', prod: 'https://order.gelatoapis.com' },
  lulu: { dev: 'https://api.sandbox.lulu.com', prod: 'https://api.lulu.com' },
};

/** What the partner printers are built from: the process's configuration and parts. */
export type PartnerPrintersConfig = Pick<Config, 'publicUrl' | 'printPartners' | 'printOutput'> & {
  durations: Pick<Config['durations'], 'printerFileUrlTtlMs'>;
};

/** The shops' partner printers of this process, configured once (routing and partner callbacks use the same). */
export function createPartnerPrinters(
  config: PartnerPrintersConfig,
  parts: { em: EntityManager; pepper: string; fetch: SafeFetch; files: FileStore },
): PartnerPrinters {
  return new PartnerPrinters({
    em: parts.em,
    pepper: parts.pepper,
    fetch: parts.fetch,
    publicUrl: config.publicUrl,
    fileUrl: (key) => parts.files.url(key, config.durations.printerFileUrlTtlMs),
    baseUrls: config.printPartners.baseUrls,
    timeoutMs: config.printPartners.timeoutMs,
    output: config.printOutput,
  });
}

export interface PartnerPrintersOptions {
  em: EntityManager;
  pepper: string;
  fetch: SafeFetch;
  /** Base of the callback URLs (PUBLIC_URL). */
  publicUrl: string;
  /** Signed, expiring URL of a FileStore key: what partners download the PDFs from. */
  fileUrl: (key: string) => string;
  /** The operator's overrides (PRINT_PARTNER_BASE_URLS). */
  baseUrls?: Partial<Record<PrintPartner, string>>;
  timeoutMs?: number;
  /** What every printer of this service takes its files in (PRINT_OUTPUT_PROFILE, PRINT_PDFX). */
  output?: PrintOutput;
}

/**
 * The shops' partner printers, each built from the shop's sealed account of that partner in that
 * environment. Routing asks `partnerPrinterFor` for the printer a rule names; a shop without that
 * account has none (undefined), which routing treats like a printer it cannot use.
 */
export class PartnerPrinters {
  /** One printer per account version: a Lulu printer keeps its access token between jobs. */
  private readonly built = new Map<string, PartnerPrinter>();

  constructor(private readonly options: PartnerPrintersOptions) {}

  async partnerPrinterFor(
    scope: { tenantId: string; env: Environment },
    partner: PrintPartner,
  ): Promise<PartnerPrinter | undefined> {
    const account = await this.options.em
      .fork()
      .findOne(PartnerAccount, { client: scope.tenantId, env: scope.env, partner }, ACROSS_TENANTS);
    return account ? this.printerOf(account) : undefined;
  }

  /** The printer of one account (its credentials opened only here, for the call). */
  printerOf(account: PartnerAccount): PartnerPrinter {
    const key = `${account.id}:${account.updatedAt.getTime()}`;
    let printer = this.built.get(key);
    if (!printer) {
      for (const old of this.built.keys()) if (old.startsWith(`${account.id}:`)) this.built.delete(old);
      printer = this.build(account);
      this.built.set(key, printer);
    }
    return printer;
  }

  private build(account: PartnerAccount): PartnerPrinter {
    const { pepper, fetch, fileUrl } = this.options;
    const credentials = credentialsOf(account, pepper);
    const api = new PartnerApi({
      partner: account.partner,
      baseUrl: this.options.baseUrls?.[account.partner] ?? PARTNER_BASE_URLS[account.partner][account.env],
      fetch,
      ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
    });
    const shippingMethods = account.shippingMethods ?? undefined;
    switch (account.partner) {
      case 'prodigi':
        return new ProdigiPrinter({
          api,
          ...(this.options.output ? { output: this.options.output } : {}),
          apiKey: credentials.apiKey!,
          fileUrl,
          callbackUrl: callbackUrlOf(account, pepper, this.options.publicUrl),
          ...(shippingMethods ? { shippingMethods } : {}),
        });
      case 'gelato':
        return new GelatoPrinter({
          api,
          ...(this.options.output ? { output: this.options.output } : {}),
          apiKey: credentials.apiKey!,
          fileUrl,
          orderType: account.env === 'dev' ? 'draft' : 'order',
          ...(shippingMethods ? { shippingMethods } : {}),
        });
      case 'lulu':
        return new LuluPrinter({
          api,
          ...(this.options.output ? { output: this.options.output } : {}),
          clientKey: credentials.clientKey!,
          clientSecret: credentials.clientSecret!,
          fileUrl,
          ...(shippingMethods ? { shippingMethods } : {}),
        });
    }
  }
}
