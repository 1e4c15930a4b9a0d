/**
 * Operator commands for shops' print partner accounts (`npm run cli -- partner ...`). The operator
 * acts for any client, naming it with `--client`. Credentials are read from the flags or, better
 * (they stay out of the shell's history), from PRINT_PARTNER_API_KEY, PRINT_PARTNER_CLIENT_KEY and
 * PRINT_PARTNER_CLIENT_SECRET; they are sealed and never printed back.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { isEnvironment, type Environment } from '../domain/environment';
import {
  listPartnerAccounts,
  removePartnerAccount,
  setPartnerAccount,
  type PartnerAccountView,
  type PartnerTarget,
} from '../services/partners/partner-accounts';
import { terminalJson, terminalLine } from './terminal-text';

export const PARTNER_USAGE = `  npm run cli -- partner set --client <clientId> --partner prodigi|gelato|lulu [--env dev|prod]
      [--api-key <key>] [--client-key <key> --client-secret <secret>] [--shipping <level>=<method>,...] [--json]
      (credentials also from PRINT_PARTNER_API_KEY, PRINT_PARTNER_CLIENT_KEY, PRINT_PARTNER_CLIENT_SECRET)
  npm run cli -- partner list --client <clientId> [--env dev|prod] [--json]
  npm run cli -- partner remove --client <clientId> --partner prodigi|gelato|lulu [--env dev|prod]`;

export interface PartnerCommandInput {
  em: EntityManager;
  pepper: string;
  publicUrl: string;
  values: {
    client?: string;
    env?: string;
    partner?: string;
    'api-key'?: string;
    'client-key'?: string;
    'client-secret'?: string;
    shipping?: string;
    json: boolean;
  };
  usage(message: string): never;
}

/** Runs `command` if it is one of these; false when it is not. */
export async function runPartnerCommand(command: string, input: PartnerCommandInput): Promise<boolean> {
  const { em, pepper, publicUrl, values, usage } = input;
  const target = (): PartnerTarget => {
    if (!values.client) return usage(`${command} needs --client <clientId>`);
    if (values.env !== undefined && !isEnvironment(values.env)) return usage('--env must be dev or prod');
    return { clientId: values.client, env: (values.env ?? 'dev') as Environment };
  };
  switch (command) {
    case 'partner set': {
      const where = target();
      if (!values.partner) return usage('partner set needs --partner prodigi|gelato|lulu');
      const shipping =
        values.shipping === undefined
          ? undefined
          : values.shipping === ''
            ? null
            : Object.fromEntries(
                values.shipping.split(',').map((pair) => {
                  const [level, method] = pair.split('=').map((part) => part.trim());
                  if (!level || !method) return usage('--shipping takes <level>=<method>,...');
                  return [level, method];
                }),
              );
      const view = await setPartnerAccount(em, pepper, publicUrl, where, {
        partner: values.partner,
        credentials: {
          apiKey: values['api-key'] ?? process.env.PRINT_PARTNER_API_KEY,
          clientKey: values['client-key'] ?? process.env.PRINT_PARTNER_CLIENT_KEY,
          clientSecret: values['client-secret'] ?? process.env.PRINT_PARTNER_CLIENT_SECRET,
        },
        ...(shipping === undefined ? {} : { shippingMethods: shipping }),
      });
      print([view], values.json, true);
      return true;
    }
    case 'partner list': {
      print(await listPartnerAccounts(em, pepper, publicUrl, target()), values.json, false);
      return true;
    }
    case 'partner remove': {
      const where = target();
      if (!values.partner) return usage('partner remove needs --partner prodigi|gelato|lulu');
      await removePartnerAccount(em, where, values.partner);
      console.log(
        values.json
          ? terminalJson({ clientId: where.clientId, env: where.env, partner: values.partner, removed: true })
          : terminalLine`removed the ${values.partner} account of ${where.clientId} (${where.env})`,
      );
      return true;
    }
    default:
      return false;
  }
}

function print(views: PartnerAccountView[], json: boolean, one: boolean): void {
  if (json) {
    console.log(terminalJson(one ? views[0] : views));
    return;
  }
  if (views.length === 0) console.log('no partner accounts');
  for (const v of views) {
    const shipping = Object.entries(v.shippingMethods ?? {})
      .map(([level, method]) => `${level}=${method}`)
      .join(',');
    console.log(terminalLine`${v.partner} (${v.env})  key ${v.credentialHint}  shipping ${shipping || 'defaults'}`);
    console.log(terminalLine`  callback URL (secret; set it at the partner): ${v.callbackUrl}`);
  }
}
