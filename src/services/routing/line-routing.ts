import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import type { LineRouting, PrintRouting, RoutingDecision } from '../../domain/print-routing';
import type { PrinterRegistry } from '../../printers/printer-registry';
import { recordEvent } from '../webhooks/webhook-events';
import { printRoutingOf } from './print-settings';

/** The printers of a line: the first rule matching its product and destination, else the default printers. */
export function chooseRoute(
  routing: Pick<PrintRouting, 'rules' | 'defaultPrinters'>,
  line: { sku: string; countryIso2: string },
  processDefault: string,
): { printers: string[]; rule: number | null } {
  const country = line.countryIso2.toUpperCase();
  const rule = routing.rules.findIndex(
    ({ match }) =>
      (!match.products || match.products.includes(line.sku)) && (!match.countries || match.countries.includes(country)),
  );
  if (rule >= 0) return { printers: routing.rules[rule].printers, rule };
  return { printers: routing.defaultPrinters.length > 0 ? routing.defaultPrinters : [processDefault], rule: null };
}

/**
 * Routes a line once: the printers chosen are kept on the line (a retried or resumed flow routes it
 * alike, even when the shop changed its rules since) with a `routed` decision and its event. Answers
 * the printers in turn and how long each has to accept the job. A shop with neither rules nor default
 * printers routes nothing: its lines go to the process's printer (sandbox in dev, PRINTER live), as
 * before routing, with no routing kept or announced.
 */
export async function routeLine(
  em: EntityManager,
  printers: PrinterRegistry,
  lineId: string,
  defaultAcceptTimeoutMs: number,
): Promise<{ printers: string[]; acceptTimeoutMs: number }> {
  const line = await em.findOneOrFail(OrderLine, { id: lineId }, { populate: ['order'] });
  const { order } = line;
  const settings = await printRoutingOf(em, { clientId: order.client.id, env: order.env });
  const acceptTimeoutMs =
    settings.acceptTimeoutSeconds !== null ? settings.acceptTimeoutSeconds * 1000 : defaultAcceptTimeoutMs;
  if (line.routing) return { printers: line.routing.printers, acceptTimeoutMs };
  // A shop that routes nothing prints where every line went before routing: no decision to record.
  if (settings.rules.length === 0 && settings.defaultPrinters.length === 0)
    return { printers: [printers.defaultPrinterName(order.env)], acceptTimeoutMs };
  const route = chooseRoute(
    settings,
    { sku: line.sku, countryIso2: order.shippingAddress.isoCode2 },
    printers.defaultPrinterName(order.env),
  );
  const routed = await recordRoutingDecision(
    em,
    lineId,
    { decision: 'routed', printer: route.printers[0], printers: route.printers, rule: route.rule },
    (routing) => routing,
    { ...route, pendingWithdrawals: [], decisions: [] },
  );
  return { printers: routed.printers, acceptTimeoutMs };
}

/**
 * Appends a routing decision (when there is one) to the line under its row lock, applies `change` to
 * its routing, and records the `order.line.routing` event in the same transaction (docs/api.md,
 * Printers and routing).
 * A line routed already is not routed again: the first decision stands.
 */
export async function recordRoutingDecision(
  em: EntityManager,
  lineId: string,
  decision: Omit<RoutingDecision, 'at'> | undefined,
  change: (routing: LineRouting) => LineRouting,
  initial?: LineRouting,
): Promise<LineRouting> {
  return em.fork().transactional(async (tx) => {
    const line = await tx.findOneOrFail(
      OrderLine,
      { id: lineId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['order', 'project'] },
    );
    if (line.routing && initial) return line.routing;
    const current = line.routing ?? initial;
    if (!current) throw new Error(`order line ${lineId} has no routing to record a decision on`);
    const made: RoutingDecision | undefined = decision && { ...decision, at: new Date().toISOString() };
    const routing = change({ ...current, decisions: made ? [...current.decisions, made] : current.decisions });
    line.routing = routing;
    if (!made) return routing;
    const { order } = line;
    await recordEvent(
      tx,
      { clientId: order.client.id, env: order.env },
      {
        type: 'order.line.routing',
        orderId: order.orderId,
        projectId: line.project.id,
        data: { orderId: order.orderId, projectId: line.project.id, ...made },
      },
    );
    return routing;
  });
}

/**
 * A printer did not take the job: the next one gets it (`next`, or none left). A printer that did not
 * answer in time, or answered "not now", may still make the job: it is withdrawn from there once the
 * job is placed elsewhere (BookProduction.withdrawPrintJob). One that refused it holds nothing.
 */
export function recordFailover(
  em: EntityManager,
  lineId: string,
  failover: { printer: string; next: string | null; reason: string; mayHoldJob: boolean },
): Promise<LineRouting> {
  return recordRoutingDecision(
    em,
    lineId,
    {
      decision: 'failed_over',
      printer: failover.printer,
      ...(failover.next ? { next: failover.next } : {}),
      reason: failover.reason.slice(0, 500),
    },
    (routing) =>
      failover.mayHoldJob && !routing.pendingWithdrawals.includes(failover.printer)
        ? { ...routing, pendingWithdrawals: [...routing.pendingWithdrawals, failover.printer] }
        : routing,
  );
}

/** The printers failover left behind that may still hold the line's job. */
export async function pendingWithdrawalsOf(em: EntityManager, lineId: string): Promise<string[]> {
  const line = await em.findOneOrFail(OrderLine, { id: lineId });
  return line.routing?.pendingWithdrawals ?? [];
}
