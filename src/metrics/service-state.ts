import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry';

/** One queue's runs: waiting to be taken, running, and how long the oldest waiting one has waited. */
export interface QueueBacklog {
  queue: string;
  waiting: number;
  running: number;
  oldestWaitingSeconds: number;
}

/** The undelivered webhook deliveries of one environment (dev: sandbox, prod: live). */
export interface WebhookBacklog {
  env: string;
  pending: number;
  oldestPendingSeconds: number;
}

export interface StatusCount {
  status: string;
  count: number;
}

/**
 * Where the figures read at scrape time come from: queries the composition root hands over
 * (each a database read). Each answers for the whole deployment, not this process, so every
 * process reports the same values; dashboards and alerts take their `max`.
 */
export interface ServiceStateSources {
  queues?: () => Promise<QueueBacklog[]>;
  webhooks?: () => Promise<WebhookBacklog[]>;
  orderLines?: () => Promise<StatusCount[]>;
  /** How many runs the embedded engine has parked (src/engine/parked-flows.ts). */
  parkedFlows?: () => Promise<number>;
}

/** How long one reading serves every scrape: a scrape storm costs the database one query per source per period. */
const STATE_CACHE_MS = 5_000;

let current: ServiceStateSources = {};

/**
 * Makes `sources` what this process's scrapes read, each reading shared by every scrape for
 * `cacheMs`, until `stop`. A source that fails leaves its series at their last values.
 */
export function reportServiceState(sources: ServiceStateSources, cacheMs = STATE_CACHE_MS): { stop(): void } {
  const reported: ServiceStateSources = {
    ...(sources.queues ? { queues: cached('queues', sources.queues, cacheMs) } : {}),
    ...(sources.webhooks ? { webhooks: cached('webhooks', sources.webhooks, cacheMs) } : {}),
    ...(sources.orderLines ? { orderLines: cached('order_lines', sources.orderLines, cacheMs) } : {}),
    ...(sources.parkedFlows ? { parkedFlows: cached('parked_flows', sources.parkedFlows, cacheMs) } : {}),
  };
  current = reported;
  return {
    stop() {
      if (current === reported) current = {};
    },
  };
}

const readFailures = new Counter({
  name: 'photobook_metrics_read_failures_total',
  help:
    'Readings of the scrape-time gauges that failed (the database away or slow), by source; ' +
    'their series keep the last values meanwhile',
  labelNames: ['source'],
  registers: [metricsRegistry],
});

/** Single flight, then the answer for `ms`: concurrent and repeated scrapes share one query. */
function cached<T>(source: string, read: () => Promise<T>, ms: number): () => Promise<T> {
  let reading: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!reading || Date.now() - reading.at >= ms) {
      const value = read();
      const entry = { at: Date.now(), value };
      reading = entry;
      // A failed reading is counted and not kept: the next scrape asks again.
      value.catch(() => {
        readFailures.inc({ source });
        if (reading === entry) reading = undefined;
      });
    }
    return reading.value;
  };
}

/** Sets each labelled gauge from one reading; a failed or absent reading keeps the last values. */
function labelledGauge<Row>(options: {
  name: string;
  help: string;
  label: string;
  read: (sources: ServiceStateSources) => (() => Promise<Row[]>) | undefined;
  labelOf: (row: Row) => string;
  valueOf: (row: Row) => number;
}): void {
  new Gauge({
    name: options.name,
    help: options.help,
    labelNames: [options.label],
    registers: [metricsRegistry],
    async collect() {
      const read = options.read(current);
      if (!read) return this.reset();
      const rows = await read().catch(() => undefined);
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ [options.label]: options.labelOf(row) }, options.valueOf(row));
    },
  });
}

labelledGauge<QueueBacklog>({
  name: 'photobook_queue_waiting_runs',
  help: 'Runs waiting on a flow engine queue (embedded engine), by queue name',
  label: 'queue',
  read: (sources) => sources.queues,
  labelOf: (row) => row.queue,
  valueOf: (row) => row.waiting,
});
labelledGauge<QueueBacklog>({
  name: 'photobook_queue_running_runs',
  help: 'Runs taken from a flow engine queue and running (embedded engine), by queue name',
  label: 'queue',
  read: (sources) => sources.queues,
  labelOf: (row) => row.queue,
  valueOf: (row) => row.running,
});
labelledGauge<QueueBacklog>({
  name: 'photobook_queue_oldest_waiting_seconds',
  help: 'How long the oldest run waiting on a queue has waited (0: none waiting), by queue name',
  label: 'queue',
  read: (sources) => sources.queues,
  labelOf: (row) => row.queue,
  valueOf: (row) => row.oldestWaitingSeconds,
});
labelledGauge<WebhookBacklog>({
  name: 'photobook_webhook_pending_deliveries',
  help: 'Webhook deliveries not yet delivered nor given up, by environment (dev, prod)',
  label: 'env',
  read: (sources) => sources.webhooks,
  labelOf: (row) => row.env,
  valueOf: (row) => row.pending,
});
labelledGauge<WebhookBacklog>({
  name: 'photobook_webhook_oldest_pending_seconds',
  help: 'Webhook lag: how long the oldest undelivered event has been waiting (0: none), by environment (dev, prod)',
  label: 'env',
  read: (sources) => sources.webhooks,
  labelOf: (row) => row.env,
  valueOf: (row) => row.oldestPendingSeconds,
});
labelledGauge<StatusCount>({
  name: 'photobook_order_lines',
  help: 'Order lines by status (docs/api.md, Order line statuses)',
  label: 'status',
  read: (sources) => sources.orderLines,
  labelOf: (row) => row.status,
  valueOf: (row) => row.count,
});

new Gauge({
  name: 'photobook_flows_dead_lettered',
  help:
    'Flow runs parked after too many recoveries without progress (npm run cli -- flow list --dead); ' +
    '0 under Temporal',
  registers: [metricsRegistry],
  async collect() {
    const read = current.parkedFlows;
    if (!read) return this.set(0);
    const count = await read().catch(() => undefined);
    if (count !== undefined) this.set(count);
  },
});
