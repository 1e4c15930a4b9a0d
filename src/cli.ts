/**
 * Operator CLI: `npm run cli -- <command>`.
 *   client create --name <name> [--json]
 *   client list [--json]
 *   client rotate --client <id> [--env dev|prod] [--json]
 *   client shop-origins --client <id> [--origin <origin>]... [--json]
 *   catalogue import --client <id> <file.json>
 *   webhook set|show|rotate-secret|test|events, campaign list|watch (src/cli/campaign-commands.ts)
 *   flow list [--dead], flow retry|cancel <workflowId> (src/cli/flow-commands.ts)
 *   order retry, project rebuild (src/cli/production-commands.ts)
 *   routing show|set (src/cli/routing-commands.ts)
 *   partner set|list|remove (src/cli/partner-commands.ts)
 *   photo faces (src/cli/photo-commands.ts)
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { openDatabase } from './db/database';
import { ClientAdmin, type IssuedClient } from './services/clients/client-admin';
import { readCatalogueFile, replaceCatalogue } from './services/catalogue/catalogue-import';
import { loadCredentialPepper } from './services/tenancy/pepper';
import { ENVIRONMENTS, isEnvironment } from './domain/environment';
import { DomainError } from './domain/errors';
import { Client } from './db/entities';
import { CAMPAIGN_USAGE, runCampaignCommand } from './cli/campaign-commands';
import { FLOW_USAGE, runFlowCommand } from './cli/flow-commands';
import { PRODUCTION_USAGE, runProductionCommand } from './cli/production-commands';
import { ROUTING_USAGE, runRoutingCommand } from './cli/routing-commands';
import { PARTNER_USAGE, runPartnerCommand } from './cli/partner-commands';
import { PHOTO_USAGE, runPhotoCommand } from './cli/photo-commands';
import { shownAsText, terminalJson, terminalLine } from './cli/terminal-text';
import { createFileStore } from './storage/create-file-store';

const USAGE = `usage:
  npm run cli -- client create --name <name> [--json]
  npm run cli -- client list [--json]
  npm run cli -- client rotate --client <clientId> [--env dev|prod] [--json]
  npm run cli -- client shop-origins --client <clientId> [--origin https://shop.example]... [--json]
  npm run cli -- catalogue import --client <clientId> <file.json>
${CAMPAIGN_USAGE}
${FLOW_USAGE}
${PRODUCTION_USAGE}
${ROUTING_USAGE}
${PARTNER_USAGE}
${PHOTO_USAGE}`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      client: { type: 'string' },
      env: { type: 'string' },
      url: { type: 'string' },
      origin: { type: 'string', multiple: true },
      events: { type: 'string' },
      limit: { type: 'string' },
      partner: { type: 'string' },
      'api-key': { type: 'string' },
      'client-key': { type: 'string' },
      'client-secret': { type: 'string' },
      shipping: { type: 'string' },
      json: { type: 'boolean', default: false },
      dead: { type: 'boolean', default: false },
      redeliver: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, command, ...rest] = positionals;
  if (values.help || !group) {
    console.log(USAGE);
    return;
  }

  const config = loadConfig();
  // Logs go to stderr so `--json` output on stdout stays machine-readable.
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 2);
  // Beside a running service on the embedded PostgreSQL, the CLI uses the service's server.
  const database = await openDatabase(config, log, { joinRunningEmbedded: true });
  try {
    const pepper = await loadCredentialPepper(config);
    const em = database.orm.em.fork();
    const admin = new ClientAdmin(em, pepper);
    switch (`${group} ${command}`) {
      case 'client create': {
        if (!values.name) throw new UsageError('client create needs --name <name>');
        printIssued(await admin.create(values.name), values.json);
        break;
      }
      case 'client list': {
        const clients = await admin.list();
        if (values.json) console.log(terminalJson(clients));
        else
          for (const c of clients)
            console.log(
              terminalLine`${c.clientId}  ${c.name}  dev=${c.accessKeys.dev ?? '-'}  prod=${c.accessKeys.prod ?? '-'}`,
            );
        break;
      }
      case 'client rotate': {
        if (!values.client) throw new UsageError('client rotate needs --client <clientId>');
        if (values.env !== undefined && !isEnvironment(values.env)) throw new UsageError('--env must be dev or prod');
        const envs = values.env ? [values.env as (typeof ENVIRONMENTS)[number]] : ENVIRONMENTS;
        printIssued(await admin.rotate(values.client, envs), values.json);
        break;
      }
      case 'client shop-origins': {
        // The editor's frame-ancestors: every --origin replaces the list; none empties it (no page may frame the editor).
        if (!values.client) throw new UsageError('client shop-origins needs --client <clientId>');
        const result = await admin.setShopOrigins(values.client, values.origin ?? []);
        console.log(
          values.json
            ? terminalJson(result)
            : terminalLine`shop origins of ${result.clientId}: ${result.shopOrigins.join(' ') || 'none (no page may frame the editor)'}`,
        );
        break;
      }
      case 'catalogue import': {
        const file = rest[0];
        if (!values.client || !file) throw new UsageError('catalogue import needs --client <clientId> and a file');
        if (!(await em.findOne(Client, { id: values.client }))) throw new UsageError(`no client ${values.client}`);
        const catalogue = await readCatalogueFile(file);
        await replaceCatalogue(em, values.client, catalogue);
        console.log(
          values.json
            ? terminalJson({
                clientId: values.client,
                products: catalogue.products.length,
                markets: catalogue.markets.length,
              })
            : terminalLine`imported ${catalogue.products.length} products in ${catalogue.markets.length} markets for ${values.client}`,
        );
        break;
      }
      default:
        if (
          await runCampaignCommand(`${group} ${command}`, {
            em,
            pepper,
            secretOverlapMs: config.durations.webhookSecretOverlapMs,
            values,
            rest,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        if (
          await runFlowCommand(`${group} ${command}`, {
            orm: database.orm,
            databaseUrl: database.url,
            temporal: config.temporal !== undefined,
            log,
            values,
            rest,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        if (
          await runRoutingCommand(`${group} ${command}`, {
            em,
            values,
            rest,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        if (
          await runProductionCommand(`${group} ${command}`, {
            em,
            config,
            databaseUrl: database.url,
            log,
            values,
            rest,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        if (
          await runPartnerCommand(`${group} ${command}`, {
            em,
            pepper,
            publicUrl: config.publicUrl,
            values,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        if (
          await runPhotoCommand(`${group} ${command}`, {
            em,
            files: createFileStore(config, pepper),
            log,
            values,
            usage: (message) => {
              throw new UsageError(message);
            },
          })
        )
          break;
        throw new UsageError(`unknown command "${[group, command].filter(Boolean).join(' ')}"`);
    }
  } finally {
    await database.close();
  }
}

function printIssued(issued: IssuedClient, json: boolean): void {
  if (json) {
    console.log(terminalJson(issued));
    return;
  }
  console.log(terminalLine`client ${issued.clientId} (${issued.name})`);
  for (const [env, c] of Object.entries(issued.credentials)) {
    console.log(terminalLine`  ${env}: accessKey=${c.accessKey} accessSecret=${c.accessSecret} apiKey=${c.apiKey}`);
  }
  console.log('Secrets are shown only now; store them safely.');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${shownAsText(error.message)}\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof DomainError) {
    console.error(terminalLine`${error.code}: ${error.message}`);
    for (const e of error.errors) console.error(terminalLine`  ${e.path}: ${e.message}`);
    process.exit(1);
  }
  // Line by line: a stack's own line breaks stay, anything in its messages is shown, not obeyed.
  console.error(
    String((error as Error)?.stack ?? error)
      .split('\n')
      .map(shownAsText)
      .join('\n'),
  );
  process.exit(1);
});
