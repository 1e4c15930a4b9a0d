/**
 * Print routing as a shop sets it (docs/api.md, Printers and routing): rules that pick the printers of
 * an order line by product and destination country, first match winning, with failover down each
 * rule's list; the hold window before a paid order goes to the printer; how long a printer has to
 * accept a job before the next one gets it.
 */

/** Printers every process has: the sandbox (dev), `local` (files under DATA_DIR) and `http` (PRINTER_HTTP_URL). */
const BUILT_IN_PRINTERS = ['sandbox', 'local', 'http'] as const;
/** Print partners, each reached through the shop's own partner account. */
export const PARTNER_PRINTERS = ['prodigi', 'gelato', 'lulu'] as const;
export const PRINTER_NAMES = [...BUILT_IN_PRINTERS, ...PARTNER_PRINTERS] as const;
export type PrinterName = (typeof PRINTER_NAMES)[number];

export function isPrinterName(value: unknown): value is PrinterName {
  return typeof value === 'string' && (PRINTER_NAMES as readonly string[]).includes(value);
}

/** One rule: which lines it matches (every line when a list is left out), and the printers to try in turn. */
export interface RoutingRule {
  match: { products?: string[]; countries?: string[] };
  printers: PrinterName[];
}

export interface PrintRouting {
  rules: RoutingRule[];
  /** The printers of a line no rule matches; empty: the process's default (dev: sandbox, prod: PRINTER). */
  defaultPrinters: PrinterName[];
  /** Seconds between payment and sending to the printer, while cancel and changes are free. */
  holdWindowSeconds: number;
  /** Seconds a printer has to accept a job before the next printer of the rule gets it; null: PRINTER_ACCEPT_TIMEOUT. */
  acceptTimeoutSeconds: number | null;
}

export const MAX_ROUTING_RULES = 100;
export const MAX_RULE_MATCHES = 200;
export const MAX_PRINTERS_PER_RULE = PRINTER_NAMES.length;
/** Prodigi's longest hold is 24 hours; a week leaves room for shops that approve orders by hand. */
export const MAX_HOLD_WINDOW_SECONDS = 7 * 24 * 3600;
export const MAX_ACCEPT_TIMEOUT_SECONDS = 7 * 24 * 3600;

/**
 * What the routing of a line decided, as `GET /v2/order` shows it and `order.line.routing` events carry it:
 * `routed` (the printers chosen), `failed_over` (a printer did not take the job; the next one gets it),
 * `late_acceptance_cancelled` (a printer left behind took the job after all and it was cancelled there),
 * `late_acceptance_refused` (it took the job and will not cancel it: production started there).
 */
type RoutingDecisionKind = 'routed' | 'failed_over' | 'late_acceptance_cancelled' | 'late_acceptance_refused';

export interface RoutingDecision {
  decision: RoutingDecisionKind;
  at: string;
  /** The printer the decision is about: the first chosen, the one left, the one that cancelled. */
  printer: string;
  /** `failed_over`: the printer that gets the job now. */
  next?: string;
  /** `routed`: the printers in turn, and the rule (0-based) that chose them, null for the default. */
  printers?: string[];
  rule?: number | null;
  reason?: string;
  jobId?: string;
}

/** A line's routing: the printers in turn, the rule that chose them, and every decision in order (the printer holding the job is the line's `printer`). */
export interface LineRouting {
  printers: string[];
  rule: number | null;
  /** Printers left behind that may still hold the job: withdrawn (cancelled) from there once they answer. */
  pendingWithdrawals: string[];
  decisions: RoutingDecision[];
}
