import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  AFTER_FINAL_ORDER_STATUSES,
  canMoveOrder,
  displayStatusOf,
  EXCEPTION_ORDER_STATUSES,
  FINAL_ORDER_STATUSES,
  isFinalOrderStatus,
  isResumeMove,
  ORDER_START_STATUSES,
  ORDER_STATUS_RANK,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  orderTransitionsMarkdown,
  PRINTER_EVENT_STATUSES,
  type OrderStatus,
} from '../../src/domain/order-status';

const SPEC_STATUSES = [
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
];

const PIPELINE: OrderStatus[] = [
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
];
const HAPPY_FROM_WAITING: OrderStatus[] = ['waiting', 'expiring', 'last call', 'paid', 'received', ...PIPELINE];
const HAPPY_FROM_PAID: OrderStatus[] = ['paid', 'received', ...PIPELINE];

const edges = () => ORDER_STATUSES.flatMap((from) => ORDER_TRANSITIONS[from].map((to) => [from, to] as const));

function reachableFrom(starts: readonly OrderStatus[]): Set<OrderStatus> {
  const seen = new Set<OrderStatus>(starts);
  const queue = [...starts];
  while (queue.length > 0) {
    for (const next of ORDER_TRANSITIONS[queue.shift()!]) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

describe('order statuses', () => {
  it('are exactly the 28 statuses of docs/api.md, each once', () => {
    expect(ORDER_STATUSES).toHaveLength(28);
    expect(new Set(ORDER_STATUSES).size).toBe(28);
    expect([...ORDER_STATUSES].sort()).toEqual([...SPEC_STATUSES].sort());
  });

  it('has one row per status, and every move goes to a known status', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...SPEC_STATUSES].sort());
    for (const [from, to] of edges()) {
      expect(SPEC_STATUSES, `${from} → ${to}`).toContain(to);
      expect(to, `${from} lists itself`).not.toBe(from);
    }
    for (const from of ORDER_STATUSES) {
      expect(new Set(ORDER_TRANSITIONS[from]).size, `duplicate target in ${from}`).toBe(ORDER_TRANSITIONS[from].length);
    }
  });

  it('allows the happy path step by step, from waiting and from paid', () => {
    for (const path of [HAPPY_FROM_WAITING, HAPPY_FROM_PAID]) {
      for (let i = 1; i < path.length; i++)
        expect(canMoveOrder(path[i - 1], path[i]), `${path[i - 1]} → ${path[i]}`).toBe(true);
    }
    // Assets first, payment second.
    expect(canMoveOrder('waiting', 'received')).toBe(true);
    expect(canMoveOrder('received', 'processing')).toBe(true);
    // Payment first, assets late, then in.
    expect(canMoveOrder('paid', 'files missing')).toBe(true);
    expect(canMoveOrder('files missing', 'received')).toBe(true);
    // Collection instead of delivery.
    expect(canMoveOrder('printed', 'ready for collection')).toBe(true);
    expect(canMoveOrder('ready for collection', 'collected')).toBe(true);
  });

  it('runs the unpaid timers waiting → expiring → last call → abandoned', () => {
    expect(canMoveOrder('waiting', 'expiring')).toBe(true);
    expect(canMoveOrder('expiring', 'last call')).toBe(true);
    expect(canMoveOrder('last call', 'abandoned')).toBe(true);
    expect(canMoveOrder('waiting', 'abandoned')).toBe(false);
    expect(canMoveOrder('expiring', 'waiting')).toBe(false);
  });

  it('lets a printer skip statuses it does not report, but only forwards', () => {
    expect(canMoveOrder('sent printjob', 'printed')).toBe(true);
    expect(canMoveOrder('accepted', 'delivering')).toBe(true);
    expect(canMoveOrder('printing', 'complete')).toBe(true);
    expect(canMoveOrder('delivering', 'printed')).toBe(false);
  });

  it('never moves backwards along the happy path (late or duplicate events)', () => {
    for (const path of [HAPPY_FROM_WAITING, HAPPY_FROM_PAID]) {
      for (let later = 0; later < path.length; later++) {
        for (let earlier = 0; earlier <= later; earlier++) {
          expect(canMoveOrder(path[later], path[earlier]), `${path[later]} → ${path[earlier]}`).toBe(false);
        }
      }
    }
    expect(canMoveOrder('delivering', 'printing')).toBe(false);
    expect(canMoveOrder('printed', 'accepted')).toBe(false);
    expect(canMoveOrder('received', 'paid')).toBe(false);
  });

  it('treats the same status as no move', () => {
    for (const status of ORDER_STATUSES) expect(canMoveOrder(status, status), status).toBe(false);
  });

  it('refuses unknown statuses instead of throwing', () => {
    expect(canMoveOrder('paid' as OrderStatus, 'shipped' as OrderStatus)).toBe(false);
    expect(canMoveOrder('shipped' as OrderStatus, 'paid' as OrderStatus)).toBe(false);
  });

  it('goes strictly forward in rank, except resumptions out of a printer-side exception', () => {
    expect(Object.keys(ORDER_STATUS_RANK).sort()).toEqual([...SPEC_STATUSES].sort());
    const backwards = edges().filter(([from, to]) => ORDER_STATUS_RANK[to] <= ORDER_STATUS_RANK[from]);
    expect(backwards.length).toBeGreaterThan(0);
    for (const [from, to] of backwards) {
      expect(EXCEPTION_ORDER_STATUSES as readonly string[], `${from} → ${to} goes back in rank`).toContain(from);
      expect(ORDER_STATUS_RANK[to], `${from} → ${to} stays at the same rank`).toBeLessThan(ORDER_STATUS_RANK[from]);
      expect(isResumeMove(from, to)).toBe(true);
    }
    expect(isResumeMove('on hold', 'printing')).toBe(true);
    expect(isResumeMove('printing', 'printed')).toBe(false);
  });

  it('recovers from printer-side exceptions', () => {
    expect(canMoveOrder('printing', 'on hold')).toBe(true);
    expect(canMoveOrder('on hold', 'printing')).toBe(true);
    expect(canMoveOrder('delivering', 'undelivered')).toBe(true);
    expect(canMoveOrder('undelivered', 'delivering')).toBe(true);
    expect(canMoveOrder('delivering', 'abnormal')).toBe(true);
    expect(canMoveOrder('abnormal', 'delivering')).toBe(true);
    expect(canMoveOrder('accepted', 'failed processing')).toBe(true);
    expect(canMoveOrder('failed processing', 'processing')).toBe(true);
    expect(canMoveOrder('failed processing', 'printing')).toBe(false);
  });

  it('cancels only until production starts (never while the job is being sent), refunds anything paid, deletes anything', () => {
    const cancellable: OrderStatus[] = [
      'waiting',
      'expiring',
      'last call',
      'paid',
      'files missing',
      'received',
      'processing',
      'rendering',
      'rendered',
      'sent printjob',
      'accepted',
      'failed processing',
    ];
    for (const status of ORDER_STATUSES) {
      expect(canMoveOrder(status, 'cancelled'), `${status} → cancelled`).toBe(cancellable.includes(status));
    }
    const unpaid: OrderStatus[] = ['waiting', 'expiring', 'last call'];
    const noRefund: OrderStatus[] = [...unpaid, 'refunded', 'cleaned', 'deleted'];
    for (const status of ORDER_STATUSES) {
      expect(canMoveOrder(status, 'refunded'), `${status} → refunded`).toBe(!noRefund.includes(status));
    }
    for (const status of ORDER_STATUSES) {
      expect(canMoveOrder(status, 'deleted'), `${status} → deleted`).toBe(status !== 'deleted');
    }
  });

  it('abandons after last call or after files stay missing, never once work has started', () => {
    const into = ORDER_STATUSES.filter((from) => canMoveOrder(from, 'abandoned'));
    expect(into.sort()).toEqual(['files missing', 'last call']);
  });

  it('leaves final statuses only for refund, clean-up or deletion; deleted not at all', () => {
    expect(ORDER_TRANSITIONS.deleted).toEqual([]);
    expect(ORDER_TRANSITIONS.cleaned).toEqual(['deleted']);
    for (const status of FINAL_ORDER_STATUSES) {
      for (const to of ORDER_TRANSITIONS[status]) {
        expect(AFTER_FINAL_ORDER_STATUSES as readonly string[], `${status} → ${to}`).toContain(to);
      }
    }
    expect(canMoveOrder('complete', 'delivering')).toBe(false);
    expect(canMoveOrder('complete', 'undelivered')).toBe(false);
    expect(ORDER_STATUSES.filter((s) => canMoveOrder('complete', s)).sort()).toEqual([
      'cleaned',
      'deleted',
      'refunded',
    ]);
    expect(isFinalOrderStatus('complete')).toBe(true);
    expect(isFinalOrderStatus('delivering')).toBe(false);
    expect(isFinalOrderStatus('on hold')).toBe(false);
    // Every non-final status still has a way forward.
    for (const status of ORDER_STATUSES.filter((s) => !isFinalOrderStatus(s))) {
      expect(
        ORDER_TRANSITIONS[status].some((to) => to !== 'deleted'),
        status,
      ).toBe(true);
    }
  });

  it('reaches every status from waiting or paid, and nothing leads back to a start', () => {
    const reached = reachableFrom(ORDER_START_STATUSES);
    expect(ORDER_STATUSES.filter((s) => !reached.has(s))).toEqual([]);
    expect(reachableFrom(['paid']).has('waiting')).toBe(false);
    expect(edges().filter(([, to]) => to === 'waiting')).toEqual([]);
  });

  it('lets printers report only printer-side statuses, each reachable from sent printjob', () => {
    const fromSent = reachableFrom(['sent printjob']);
    for (const status of PRINTER_EVENT_STATUSES) expect(fromSent.has(status), status).toBe(true);
    expect(PRINTER_EVENT_STATUSES as readonly string[]).not.toContain('paid');
    expect(PRINTER_EVENT_STATUSES as readonly string[]).not.toContain('cancelled');
  });

  it('shows users a short status, with the documented examples where they apply', () => {
    expect(displayStatusOf('paid')).toBe('Payment Complete');
    expect(displayStatusOf('rendering')).toBe('Processing');
    expect(displayStatusOf('printing')).toBe('Printing');
    expect(displayStatusOf('delivering')).toBe('Shipped');
    expect(displayStatusOf('complete')).toBe('Delivered');
    expect(displayStatusOf('cancelled')).toBe('Cancelled');
    expect(displayStatusOf('refunded')).toBe('Refunded');
    expect(displayStatusOf('on hold')).toBe('On hold');
    for (const status of ORDER_STATUSES)
      expect(displayStatusOf(status), status).toMatch(/^[A-Z][a-z]+( [a-z]+)*$|^Payment Complete$/);
  });

  it('renders the table as Markdown, one row per status with its moves', () => {
    const markdown = orderTransitionsMarkdown();
    const lines = markdown.split('\n');
    expect(lines).toHaveLength(2 + 28);
    expect(lines[0]).toMatch(/^\| Status \|.*\| May move to \|$/);
    expect(lines[1]).toMatch(/^\|(---\|)+$/);
    expect(markdown).toContain(
      '| `delivering` | being delivered (tracking URL may be available) | Shipped | `ready for collection`, `complete`, `abnormal`, `undelivered`, `expired`, `refunded`, `deleted` |',
    );
    expect(markdown).toContain('| `deleted` | manually deleted | Deleted | (none) |');
    for (const status of ORDER_STATUSES) {
      const row = lines.find((line) => line.startsWith(`| \`${status}\` |`));
      expect(row, status).toBeDefined();
      expect(row!.split('|')).toHaveLength(6);
    }
  });

  it('is shown in docs/api.md exactly as the code has it', async () => {
    const reference = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(reference).toContain(orderTransitionsMarkdown());
  });
});
