/**
 * Operator commands for webhooks and campaigns (`npm run cli -- webhook ...`, `campaign ...`).
 * The operator acts for any client, so these cross tenants on purpose: the client is named by
 * `--client`, or, for `campaign watch`, the campaign id is enough.
 */
import cliProgress from 'cli-progress';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign, EventRecord } from '../db/entities';
import { envelopeOf } from '../services/webhooks/webhook-events';
import { sendTestEvent } from '../services/webhooks/test-event';
import { isEnvironment, type Environment } from '../domain/environment';
import {
  eventTypesOf,
  findWebhook,
  enableWebhook,
  rotateWebhookSecret,
  setWebhook,
  setWebhookEventTypes,
  type IssuedWebhook,
  type WebhookTarget,
} from '../services/webhooks/webhook-endpoints';
import { campaignCounts, type CampaignCounts } from '../services/campaigns/campaign-progress';
import { ACROSS_TENANTS, scopeToTenant } from '../db/tenant-filter';
import { terminalJson, terminalLine } from './terminal-text';

export const CAMPAIGN_USAGE = `  npm run cli -- webhook set --client <clientId> --url <url> [--events all|<type,type>] [--env dev|prod] [--json]
  npm run cli -- webhook show --client <clientId> [--env dev|prod] [--json]
  npm run cli -- webhook test --client <clientId> [--env dev|prod] [--json]
  npm run cli -- webhook events --client <clientId> [--limit <n>] [--env dev|prod] [--json]
  npm run cli -- webhook rotate-secret --client <clientId> [--env dev|prod] [--json]
  npm run cli -- webhook enable --client <clientId> [--redeliver] [--env dev|prod] [--json]
  npm run cli -- campaign list [--client <clientId>] [--json]
  npm run cli -- campaign watch <campaignId>`;

export interface CommandInput {
  em: EntityManager;
  pepper: string;
  /** WEBHOOK_SECRET_OVERLAP: how long a rotated secret still signs. */
  secretOverlapMs: number;
  values: {
    client?: string;
    url?: string;
    env?: string;
    events?: string;
    limit?: string;
    json: boolean;
    redeliver?: boolean;
  };
  rest: string[];
  usage(message: string): never;
}

const WATCH_POLL_MS = 500;
const FINAL = ['completed', 'failed'];

/** Runs `command` if it is one of these; false when it is not. */
export async function runCampaignCommand(command: string, input: CommandInput): Promise<boolean> {
  const { em, pepper, secretOverlapMs, values, rest, usage } = input;
  const target = (): WebhookTarget => {
    if (!values.client) return usage(`${command} needs --client <clientId>`);
    if (values.env !== undefined && !isEnvironment(values.env)) return usage('--env must be dev or prod');
    return { clientId: values.client, env: (values.env ?? 'dev') as Environment };
  };
  switch (command) {
    case 'webhook set': {
      const where = target();
      if (!values.url) return usage('webhook set needs --url <url>');
      const issued = await setWebhook(scopeToTenant(em, where), pepper, where, values.url);
      const types =
        values.events === undefined
          ? undefined
          : values.events === 'all'
            ? null
            : values.events.split(',').map((t) => t.trim());
      const chosen =
        types === undefined
          ? undefined
          : eventTypesOf(await setWebhookEventTypes(scopeToTenant(em, where), where, types));
      printIssued(issued, where.env, values.json, chosen);
      return true;
    }
    case 'webhook rotate-secret': {
      const where = target();
      const issued = await rotateWebhookSecret(scopeToTenant(em, where), pepper, where, secretOverlapMs);
      const until = issued.previousSecretExpiresAt?.toISOString() ?? null;
      if (values.json)
        console.log(terminalJson({ url: issued.url, secret: issued.secret, previousSecretExpiresAt: until }));
      else {
        printIssued(issued, where.env, false);
        if (until) console.log(terminalLine`the replaced secret also signs until ${until}`);
      }
      return true;
    }
    case 'webhook enable': {
      const where = target();
      const endpoint = await enableWebhook(scopeToTenant(em, where), where, values.redeliver === true);
      if (values.json) console.log(terminalJson({ url: endpoint.url, env: where.env, disabledAt: null }));
      else
        console.log(
          values.redeliver
            ? terminalLine`webhook (${where.env}) enabled: ${endpoint.url}; the events it missed are sent again by the running service`
            : terminalLine`webhook (${where.env}) enabled: ${endpoint.url}; the events it missed are on GET /v2/events (--redeliver sends them)`,
        );
      return true;
    }
    case 'webhook show': {
      const where = target();
      const endpoint = await findWebhook(scopeToTenant(em, where), where);
      if (values.json)
        console.log(
          terminalJson(
            endpoint
              ? {
                  url: endpoint.url,
                  env: where.env,
                  eventTypes: eventTypesOf(endpoint),
                  updatedAt: endpoint.updatedAt.toISOString(),
                  disabledAt: endpoint.disabledAt?.toISOString() ?? null,
                  disabledReason: endpoint.disabledReason ?? null,
                }
              : null,
          ),
        );
      else
        console.log(
          endpoint
            ? terminalLine`${where.env}: ${endpoint.url} (since ${endpoint.updatedAt.toISOString()})\nevent types: ${eventTypesOf(endpoint).join(', ')}${endpoint.disabledAt ? `\nDISABLED at ${endpoint.disabledAt.toISOString()}: ${endpoint.disabledReason ?? ''} (webhook enable)` : ''}`
            : terminalLine`no webhook set for ${where.env}`,
        );
      return true;
    }
    case 'webhook test': {
      // The running service's outbox relay sends it within a moment.
      const where = target();
      const delivery = await sendTestEvent(scopeToTenant(em, where), where, 'the operator (CLI)');
      if (values.json)
        console.log(terminalJson({ deliveryId: delivery.id, eventId: delivery.eventId, url: delivery.url }));
      else
        console.log(
          terminalLine`queued webhook.test ${delivery.eventId} to ${delivery.url} (delivery ${delivery.id}); the running service sends it`,
        );
      return true;
    }
    case 'webhook events': {
      const where = target();
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      const scoped = scopeToTenant(em, where);
      const latest = await scoped.find(
        EventRecord,
        {},
        {
          orderBy: { position: 'desc' },
          limit: Number.isInteger(limit) && limit > 0 && limit <= 100 ? limit : usage('--limit must be from 1 to 100'),
        },
      );
      const events = latest.reverse().map(envelopeOf);
      if (values.json) console.log(terminalJson(events));
      else
        for (const e of events)
          console.log(
            terminalLine`${e.occurredAt}  ${e.id}  ${e.type.padEnd(26)}  ${String(e.data.orderId ?? '')}  ${e.sequence ?? ''}`,
          );
      return true;
    }
    case 'campaign list': {
      // The operator sees every client's campaigns.
      const campaigns = await em.find(Campaign, values.client ? { client: values.client } : {}, {
        orderBy: { createdAt: 'desc' },
        limit: 100,
        populate: ['client'],
        ...ACROSS_TENANTS,
      });
      const listed = [];
      for (const c of campaigns) {
        listed.push({
          id: c.id,
          clientId: c.client.id,
          env: c.env,
          status: c.status,
          csvUrl: c.csvUrl,
          createdAt: c.createdAt.toISOString(),
          counts: await campaignCounts(em, c),
        });
      }
      if (values.json) console.log(terminalJson(listed));
      else
        for (const c of listed)
          console.log(terminalLine`${c.id}  ${c.env}  ${c.status.padEnd(10)}  ${summary(c.counts)}  ${c.csvUrl}`);
      return true;
    }
    case 'campaign watch': {
      const id = rest[0];
      if (!id) return usage('campaign watch needs a campaign id');
      process.exitCode = (await watch(em, id, usage)) === 'completed' ? 0 : 1;
      return true;
    }
    default:
      return false;
  }
}

/** A progress bar of settled rows until the campaign completes or fails. */
async function watch(em: EntityManager, id: string, usage: (message: string) => never): Promise<string> {
  const load = async () => {
    em.clear();
    const campaign = await em.findOne(Campaign, { id }, ACROSS_TENANTS);
    return campaign ? { campaign, counts: await campaignCounts(em, campaign) } : null;
  };
  let state = await load();
  if (!state) return usage(`no campaign ${id}`);
  const bar = new cliProgress.SingleBar(
    {
      format: `${id} {status} |{bar}| {value}/{total} rows settled | generated {generated} notified {notified} failed {failed}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const settled = (c: CampaignCounts) => c.notified + c.failed + c.duplicate;
  bar.start(Math.max(state.counts.rows, 1), settled(state.counts), { status: state.campaign.status, ...state.counts });
  while (!FINAL.includes(state.campaign.status)) {
    await new Promise((resolve) => setTimeout(resolve, WATCH_POLL_MS));
    state = (await load())!;
    bar.setTotal(Math.max(state.counts.rows, 1));
    bar.update(settled(state.counts), { status: state.campaign.status, ...state.counts });
  }
  bar.stop();
  console.log(
    terminalLine`${id} ${state.campaign.status}: ${summary(state.counts)}${state.campaign.reason ? ` (${state.campaign.reason})` : ''}`,
  );
  return state.campaign.status;
}

function summary(c: CampaignCounts): string {
  return `rows ${c.rows}, generated ${c.generated}, notified ${c.notified}, failed ${c.failed} (invalid ${c.invalid}), duplicate ${c.duplicate}`;
}

function printIssued(issued: IssuedWebhook, env: Environment, json: boolean, eventTypes?: string[]): void {
  if (json) {
    console.log(terminalJson({ url: issued.url, secret: issued.secret, ...(eventTypes ? { eventTypes } : {}) }));
    return;
  }
  console.log(terminalLine`webhook (${env}): ${issued.url}`);
  if (eventTypes) console.log(terminalLine`event types: ${eventTypes.join(', ')}`);
  if (issued.secret)
    console.log(terminalLine`signing secret: ${issued.secret}\nThe secret is shown only now; store it safely.`);
  else console.log('signing secret unchanged (replace it with: webhook rotate-secret)');
}
