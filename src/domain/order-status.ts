/**
 * Order statuses (docs/api.md, Order line statuses) and the one table of moves between them. Code, tests and docs/api.md all
 * read this table; `canMoveOrder` refuses anything not in it, so a late or duplicate printer event,
 * or a cancel after the printer has the job, changes nothing.
 *
 * How the table reads:
 * - Before payment: `waiting → expiring → last call → abandoned` on timers; the assets (`received`)
 *   or the payment (`paid`) may arrive at any of those three.
 * - `paid` and `received` are the two halves. Payment first: `paid → received` when the assets are
 *   in (or `paid → files missing → received | abandoned` when they are late). Assets first:
 *   `received → processing` when the payment completes them. Either way, on to `processing`.
 * - Our pipeline: `processing → rendering → rendered → sending printjob → sent printjob`.
 * - The printer: `accepted → printing → printed → delivering → complete`, or the collection branch
 *   `… → ready for collection → collected`. A printer may skip statuses it does not report (a lost
 *   event must not block the next one), so every later printer status is allowed directly; an
 *   earlier one never is.
 * - Printer-side interruptions (`EXCEPTION_ORDER_STATUSES`) and their resumptions: `on hold` resumes
 *   at whatever the printer reports next; `failed processing` (reported by the printer, or set by
 *   our pipeline when production gave up, with `failureReason`) is retried from `processing` or
 *   cancelled; `abnormal` and `undelivered` return to `delivering` (or end). These
 *   resumptions are the only moves that go back in `ORDER_STATUS_RANK`; every other move goes
 *   strictly forward, which is what makes a late or duplicate event harmless.
 * - The eCommerce side: `cancelled` until the printer starts production: while nothing has gone to
 *   the printer (up to `rendered`, and after `failed processing`), and once the job is sent
 *   (`sent printjob`, `accepted`) when the printer confirms the cancel; never while the job is being
 *   sent (`sending printjob`) nor from `printing` on; `refunded` from every status once payment was taken, including
 *   after delivery. `deleted` (manual) from anywhere; `cleaned` (assets removed due to age) once
 *   the order has ended.
 * - Staying put is not a move: `canMoveOrder(s, s)` is false. Callers treat a same-status update as
 *   a duplicate that already happened (idempotent no-op), not as an error.
 */
export const ORDER_STATUSES = [
  'waiting',
  'expiring',
  'last call',
  'files missing',
  'received',
  'paid',
  'processing',
  'rendering',
  'rendered',
  'sending printjob',
  'sent printjob',
  'accepted',
  'printing',
  'printed',
  'delivering',
  'complete',
  'ready for collection',
  'collected',
  'abnormal',
  'failed processing',
  'on hold',
  'undelivered',
  'expired',
  'cleaned',
  'cancelled',
  'refunded',
  'abandoned',
  'deleted',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The meaning of each status (docs/api.md). */
export const ORDER_STATUS_MEANINGS: Record<OrderStatus, string> = {
  waiting: 'order item created; assets and payment not yet made',
  expiring: 'still waiting; will expire soon',
  'last call': 'in expiring state; last chance to complete',
  'files missing': 'payment made but assets not uploaded after timeout',
  received: 'assets uploaded',
  paid: 'payment received',
  processing: 'payment and assets complete; being processed',
  rendering: 'rendering final assets',
  rendered: 'final assets rendered',
  'sending printjob': 'sending print job to the printer',
  'sent printjob': 'print job sent',
  accepted: 'printer received and accepted the order',
  printing: 'printer is printing',
  printed: 'printer has printed',
  delivering: 'being delivered (tracking URL may be available)',
  complete: 'fully completed',
  'ready for collection': 'ready for pickup',
  collected: 'collected',
  abnormal: 'abnormal delivery reported by printer',
  'failed processing': 'failure reported by printer',
  'on hold': 'placed on hold by printer',
  undelivered: 'courier unable to deliver',
  expired: 'courier stopped tracking; no new updates',
  cleaned: 'order assets removed due to age',
  cancelled: 'cancelled by the eCommerce side',
  refunded: 'refunded by the eCommerce side',
  abandoned: 'paid but assets not uploaded after final timeout, or passed last call',
  deleted: 'manually deleted',
};

/** Where an order line starts: `waiting` when created before payment, `paid` when placed paid. */
export const ORDER_START_STATUSES = ['waiting', 'paid'] as const satisfies readonly OrderStatus[];

/**
 * Before payment, each unpaid timer moves an order line one step along this chain: reminders at
 * `expiring` and `last call`, then `abandoned` ends it.
 */
export const UNPAID_TIMER_CHAIN = [
  'waiting',
  'expiring',
  'last call',
  'abandoned',
] as const satisfies readonly OrderStatus[];

/** Whether a line still waits for its payment on the unpaid timers: any status of the chain but its end. */
export function isAwaitingPayment(status: OrderStatus): boolean {
  const chain: readonly OrderStatus[] = UNPAID_TIMER_CHAIN;
  return chain.indexOf(status) >= 0 && status !== chain[chain.length - 1];
}

/** Statuses the eCommerce side may set (docs/api.md, Order line statuses: cancelled and refunded). */
export const ECOMMERCE_STATUSES = ['cancelled', 'refunded'] as const satisfies readonly OrderStatus[];
export type EcommerceStatus = (typeof ECOMMERCE_STATUSES)[number];

/** Printer-side interruptions: the only statuses whose exits may go back in rank (resumptions). */
export const EXCEPTION_ORDER_STATUSES = [
  'on hold',
  'failed processing',
  'abnormal',
  'undelivered',
] as const satisfies readonly OrderStatus[];

/** Statuses a printer may report in a status event; the others are ours or the eCommerce side's. */
export const PRINTER_EVENT_STATUSES = [
  'accepted',
  'printing',
  'printed',
  'delivering',
  'complete',
  'ready for collection',
  'collected',
  'abnormal',
  'failed processing',
  'on hold',
  'undelivered',
  'expired',
] as const satisfies readonly OrderStatus[];

export type PrinterEventStatus = (typeof PRINTER_EVENT_STATUSES)[number];

/**
 * Fulfilment is over: nothing more will be produced or shipped. Their only exits are the
 * after-life statuses below (a refund after delivery, asset clean-up, manual deletion).
 */
export const FINAL_ORDER_STATUSES = [
  'complete',
  'collected',
  'expired',
  'cancelled',
  'refunded',
  'abandoned',
  'cleaned',
  'deleted',
] as const satisfies readonly OrderStatus[];

/** The only statuses a final status may still move to. */
export const AFTER_FINAL_ORDER_STATUSES = ['refunded', 'cleaned', 'deleted'] as const satisfies readonly OrderStatus[];

export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  // Before payment: timers, or the assets / the payment arriving.
  waiting: ['expiring', 'received', 'paid', 'cancelled', 'deleted'],
  expiring: ['last call', 'received', 'paid', 'cancelled', 'deleted'],
  'last call': ['abandoned', 'received', 'paid', 'cancelled', 'deleted'],
  paid: ['files missing', 'received', 'processing', 'cancelled', 'refunded', 'deleted'],
  'files missing': ['received', 'abandoned', 'cancelled', 'refunded', 'deleted'],
  received: ['processing', 'cancelled', 'refunded', 'deleted'],

  // Our pipeline; cancellable until the job goes to the printer.
  // Production may give up (a render that keeps failing, a store full for longer than
  // RESOURCE_RETRY_WINDOW): `failed processing` with a reason, retried from `processing`.
  processing: ['rendering', 'failed processing', 'cancelled', 'refunded', 'deleted'],
  rendering: ['rendered', 'failed processing', 'cancelled', 'refunded', 'deleted'],
  rendered: ['sending printjob', 'cancelled', 'refunded', 'deleted'],
  'sending printjob': ['sent printjob', 'accepted', 'failed processing', 'refunded', 'deleted'],

  // The printer: any later status directly (skipped events), never an earlier one.
  // Cancellable (the printer told first) until production starts.
  'sent printjob': [
    'accepted',
    'printing',
    'printed',
    'delivering',
    'ready for collection',
    'complete',
    'on hold',
    'failed processing',
    'cancelled',
    'refunded',
    'deleted',
  ],
  accepted: [
    'printing',
    'printed',
    'delivering',
    'ready for collection',
    'complete',
    'on hold',
    'failed processing',
    'cancelled',
    'refunded',
    'deleted',
  ],
  printing: [
    'printed',
    'delivering',
    'ready for collection',
    'complete',
    'on hold',
    'failed processing',
    'refunded',
    'deleted',
  ],
  printed: ['delivering', 'ready for collection', 'complete', 'on hold', 'refunded', 'deleted'],
  delivering: ['ready for collection', 'complete', 'abnormal', 'undelivered', 'expired', 'refunded', 'deleted'],
  'ready for collection': ['collected', 'expired', 'refunded', 'deleted'],

  // Printer-side interruptions and their resumptions.
  'on hold': [
    'accepted',
    'printing',
    'printed',
    'delivering',
    'ready for collection',
    'complete',
    'failed processing',
    'refunded',
    'deleted',
  ],
  'failed processing': ['processing', 'cancelled', 'refunded', 'deleted'],
  abnormal: ['delivering', 'undelivered', 'ready for collection', 'complete', 'expired', 'refunded', 'deleted'],
  undelivered: ['delivering', 'ready for collection', 'complete', 'expired', 'refunded', 'deleted'],

  // Ended: only refund, clean-up and deletion remain.
  complete: ['refunded', 'cleaned', 'deleted'],
  collected: ['refunded', 'cleaned', 'deleted'],
  expired: ['refunded', 'cleaned', 'deleted'],
  cancelled: ['refunded', 'cleaned', 'deleted'],
  abandoned: ['refunded', 'cleaned', 'deleted'],
  refunded: ['cleaned', 'deleted'],
  cleaned: ['deleted'],
  deleted: [],
};

/**
 * Progress of each status. Every move in the table goes to a strictly higher rank, except a
 * resumption out of an exception status (tests hold the table to this). Statuses with the same
 * rank are alternatives with no move between them.
 */
export const ORDER_STATUS_RANK: Record<OrderStatus, number> = {
  waiting: 0,
  expiring: 1,
  'last call': 2,
  paid: 3,
  'files missing': 4,
  received: 5,
  processing: 6,
  rendering: 7,
  rendered: 8,
  'sending printjob': 9,
  'sent printjob': 10,
  accepted: 11,
  printing: 12,
  printed: 13,
  'on hold': 14,
  'failed processing': 15,
  delivering: 16,
  abnormal: 17,
  undelivered: 18,
  'ready for collection': 19,
  complete: 20,
  collected: 20,
  expired: 21,
  cancelled: 22,
  abandoned: 22,
  refunded: 23,
  cleaned: 24,
  deleted: 25,
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && Object.hasOwn(ORDER_TRANSITIONS, value);
}

export function isPrinterEventStatus(value: unknown): value is PrinterEventStatus {
  return typeof value === 'string' && (PRINTER_EVENT_STATUSES as readonly string[]).includes(value);
}

/** The one check of a status change: only moves in the table; staying put is not a move. */
export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  if (from === to || !isOrderStatus(from) || !isOrderStatus(to)) return false;
  return ORDER_TRANSITIONS[from].includes(to);
}

/** A move that goes back in rank: allowed only as a resumption out of an exception status. */
export function isResumeMove(from: OrderStatus, to: OrderStatus): boolean {
  return canMoveOrder(from, to) && ORDER_STATUS_RANK[to] < ORDER_STATUS_RANK[from];
}

/** Cancelling these must reach the printer first: it holds the job but has not started producing it. */
export const PRINTER_HELD_STATUSES = ['sent printjob', 'accepted'] as const satisfies readonly OrderStatus[];

/** Recipient and shipping may change only before the job goes to the printer (the job carries them). */
export function isBeforePrintJob(status: OrderStatus): boolean {
  return ORDER_STATUS_RANK[status] < ORDER_STATUS_RANK['sending printjob'] && !isFinalOrderStatus(status);
}

export function isFinalOrderStatus(status: OrderStatus): boolean {
  return (FINAL_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
}

/** What users see in order history (`displayStatus`); docs/api.md, Order history. */
const DISPLAY_STATUS: Record<OrderStatus, string> = {
  waiting: 'Awaiting payment',
  expiring: 'Awaiting payment',
  'last call': 'Awaiting payment',
  paid: 'Payment Complete',
  'files missing': 'Waiting for photos',
  received: 'Processing',
  processing: 'Processing',
  rendering: 'Processing',
  rendered: 'Processing',
  'sending printjob': 'Processing',
  'sent printjob': 'Processing',
  accepted: 'Printing',
  printing: 'Printing',
  printed: 'Printed',
  'on hold': 'On hold',
  'failed processing': 'Problem with order',
  delivering: 'Shipped',
  abnormal: 'Delivery problem',
  undelivered: 'Delivery failed',
  'ready for collection': 'Ready for collection',
  complete: 'Delivered',
  collected: 'Collected',
  // The courier stopped tracking: the parcel was shipped, nothing more is known.
  expired: 'Shipped',
  cancelled: 'Cancelled',
  abandoned: 'Cancelled',
  refunded: 'Refunded',
  // Cleaned follows any ended order (delivered, cancelled, refunded), so it claims none of them.
  cleaned: 'Archived',
  deleted: 'Deleted',
};

export function displayStatusOf(status: OrderStatus): string {
  return DISPLAY_STATUS[status] ?? status;
}

/** The table as Markdown, for docs/api.md (a test keeps its copy equal to this). */
export function orderTransitionsMarkdown(): string {
  const code = (status: string) => `\`${status}\``;
  const rows = ORDER_STATUSES.map((from) => {
    const next = ORDER_TRANSITIONS[from].map(code).join(', ') || '(none)';
    return `| ${code(from)} | ${ORDER_STATUS_MEANINGS[from]} | ${DISPLAY_STATUS[from]} | ${next} |`;
  });
  return ['| Status | Meaning | Shown to users as | May move to |', '|---|---|---|---|', ...rows].join('\n');
}
