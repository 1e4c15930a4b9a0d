import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { scrape } from '../support/prometheus';

const MONITORING = path.resolve(import.meta.dirname, '../../docs/monitoring');

/** PromQL's keywords and aggregation modifiers: identifiers of an expression that name no series. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
]);

/**
 * The series an expression reads: its identifiers once strings, label matchers, ranges, grouping
 * clauses and function calls are taken out. Deliberately strict: a name it cannot tell from a
 * series is reported, and then fails the test rather than passing unseen.
 */
function seriesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = [...bare.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)].map((match) => match[0]);
  return names.filter((name) => !KEYWORDS.has(name) && !/^(e|inf|nan)$/i.test(name));
}

/** Every PromQL expression of the dashboard's panels. */
function dashboardExpressions(dashboard: Dashboard): { where: string; expr: string }[] {
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })),
  );
}

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/**
 * The Grafana dashboard and the Prometheus alert rules kept in docs/monitoring/ read only series
 * that the running service exports: names are compared with a scrape of the real service's metrics
 * listener, so a renamed or removed series fails here instead of leaving a blank panel or an alert
 * that never fires.
 */
describe('monitoring kept in the repository', () => {
  let api: TestService;
  let exported: Set<string>;

  beforeAll(async () => {
    api = await startTestService();
    exported = (await scrape(api.metricsUrl!)).names;
  });
  afterAll(() => api?.stop());

  it('parses the expression reader on known shapes', () => {
    const ratio = 'sum by (kind) (rate(a_total{x="b c",y!~"d"}[5m])) / sum(rate(b_count[5m])) > 0.1';
    expect(seriesOf(ratio)).toEqual(['a_total', 'b_count']);
    expect(seriesOf('histogram_quantile(0.95, sum by (kind, le) (rate(c_bucket[15m])))')).toEqual(['c_bucket']);
    expect(seriesOf('max(d) > 1e3')).toEqual(['d']);
  });

  it('the alert rules parse, and each rule has a page-worthy shape and reads exported series', async () => {
    const file = await readFile(path.join(MONITORING, 'alert-rules.yml'), 'utf8');
    const rules = parse(file) as { groups: { name: string; rules: Rule[] }[] };
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'PhotobookRendersFailing',
        'PhotobookQueueWaitingLong',
        'PhotobookWebhookLag',
        'PhotobookPrinterErrors',
      ]),
    );
    for (const rule of all) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(rule.labels?.severity, rule.alert).toBeDefined();
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      const series = seriesOf(rule.expr);
      expect(series.length, rule.alert).toBeGreaterThan(0);
      for (const name of series) {
        expect(exported.has(name), `${rule.alert} reads ${name}, which the service does not export`).toBe(true);
      }
    }
  });

  it('the dashboard is JSON whose every panel reads exported series', async () => {
    const dashboard = JSON.parse(await readFile(path.join(MONITORING, 'grafana-dashboard.json'), 'utf8'));
    const expressions = dashboardExpressions(dashboard);
    expect(expressions.length).toBeGreaterThanOrEqual(10);
    const read = new Set<string>();
    for (const { where, expr } of expressions) {
      const series = seriesOf(expr);
      expect(series.length, where).toBeGreaterThan(0);
      for (const name of series) {
        expect(exported.has(name), `${where} reads ${name}, which the service does not export`).toBe(true);
        read.add(name);
      }
    }
    // The few that matter each have a panel.
    const paged = [
      'photobook_render_failures_total',
      'photobook_queue_oldest_waiting_seconds',
      'photobook_webhook_oldest_pending_seconds',
      'photobook_printer_errors_total',
    ];
    for (const name of paged) {
      expect(read.has(name), name).toBe(true);
    }
  });
});
