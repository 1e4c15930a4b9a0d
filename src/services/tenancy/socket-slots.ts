import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';

/** What a client holds on graphql-ws: open connections and running operations (subscriptions). */
export type SlotKind = 'connections' | 'subscriptions';

/**
 * The graphql-ws slots each client holds, against the caps of docs/operations.md (Limits).
 * `ProcessSlots` counts this process's sockets; `SharedSlots` counts every process of the database.
 */
export interface SocketSlots {
  /** Takes one slot of `kind` for `client` unless it already holds `cap`; false when refused. */
  take(client: string, kind: SlotKind, cap: number): Promise<boolean>;
  /** Gives back `count` slots (a closing socket gives back its connection and its running operations). */
  release(client: string, kind: SlotKind, count: number): void;
  /** Gives back every slot of this process, at shutdown. */
  close(): Promise<void>;
}

/** The slots held through this process's sockets. */
class HeldSlots {
  private readonly held = { connections: new Map<string, number>(), subscriptions: new Map<string, number>() };
  /** Bumped on every change, so that a rewrite can tell whether it saw the latest counts. */
  changes = 0;

  count(client: string, kind: SlotKind): number {
    return this.held[kind].get(client) ?? 0;
  }

  add(client: string, kind: SlotKind, by: number): void {
    this.changes++;
    const counts = this.held[kind];
    const left = (counts.get(client) ?? 0) + by;
    if (left > 0) counts.set(client, left);
    else counts.delete(client);
  }

  rows(): { clients: string[]; connections: number[]; subscriptions: number[] } {
    const clients = [...new Set([...this.held.connections.keys(), ...this.held.subscriptions.keys()])];
    return {
      clients,
      connections: clients.map((client) => this.count(client, 'connections')),
      subscriptions: clients.map((client) => this.count(client, 'subscriptions')),
    };
  }
}

/** The caps per process (LIMITS_STORE=memory): a client may hold them on each process. */
export class ProcessSlots implements SocketSlots {
  private readonly held = new HeldSlots();

  async take(client: string, kind: SlotKind, cap: number): Promise<boolean> {
    if (this.held.count(client, kind) >= cap) return false;
    this.held.add(client, kind, 1);
    return true;
  }

  release(client: string, kind: SlotKind, count: number): void {
    this.held.add(client, kind, -count);
  }

  async close(): Promise<void> {}
}

export interface SharedSlotsTiming {
  /** How often a live process says so. */
  heartbeatMs: number;
  /** Slots of a process not heard from for this long no longer count (it died or lost the database). */
  expiryMs: number;
}

const DEFAULT_TIMING: SharedSlotsTiming = { heartbeatMs: 5_000, expiryMs: 20_000 };

/**
 * The caps across every process of the database (LIMITS_STORE=postgres). Each process has a random
 * id, a row in `socket_slot_processes` it refreshes every heartbeat, and one row per client in
 * `socket_slots` with what it holds. A take locks the client (a transaction-level advisory lock, so
 * takes of one client on all processes queue) and adds its slot only if the client's slots on
 * live processes stay within the cap: one transaction of four statements per socket or
 * subscription opened, nothing per request. A process that dies without closing stops counting
 * once its heartbeat is `expiryMs` old, and its rows are deleted by the next heartbeat of another.
 *
 * This process's own counts are kept in memory too and are the truth for its rows: when the
 * database cannot be reached, caps are checked against them alone (the caps then hold per process,
 * like the rate limits' LimitStore), and the heartbeat after a failure, or after finding its
 * process row gone (an unlogged table after a crash, an expiry during an outage), rewrites them.
 */
export class SharedSlots implements SocketSlots {
  readonly processId = randomUUID();
  private readonly held = new HeldSlots();
  private dirty = false;
  private started?: Promise<void>;
  private heartbeat?: NodeJS.Timeout;
  private beating?: Promise<void>;

  constructor(
    private readonly knex: Knex,
    private readonly log: Logger,
    private readonly timing: SharedSlotsTiming = DEFAULT_TIMING,
  ) {}

  async take(client: string, kind: SlotKind, cap: number): Promise<boolean> {
    await this.start();
    try {
      const taken = await this.knex.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`socket-slots:${client}`]);
        // A statement of its own after the lock: its snapshot sees every take committed before.
        const { rows } = await trx.raw(
          `INSERT INTO socket_slots (process_id, client_key, ${kind})
           SELECT CAST(? AS uuid), CAST(? AS text), 1
            WHERE (SELECT coalesce(sum(s.${kind}), 0) FROM socket_slots s LEFT JOIN socket_slot_processes p USING (process_id)
                    WHERE s.client_key = ? AND (s.process_id = ? OR p.seen_at > now() - make_interval(secs => ?))) < ?
           ON CONFLICT (client_key, process_id) DO UPDATE SET ${kind} = socket_slots.${kind} + 1
           RETURNING 1`,
          [this.processId, client, client, this.processId, this.timing.expiryMs / 1000, cap],
        );
        return rows.length > 0;
      });
      if (taken) this.held.add(client, kind, 1);
      return taken;
    } catch (error) {
      this.failed(error);
      if (this.held.count(client, kind) >= cap) return false;
      this.held.add(client, kind, 1);
      return true;
    }
  }

  release(client: string, kind: SlotKind, count: number): void {
    if (count <= 0) return;
    this.held.add(client, kind, -count);
    this.knex
      .raw(`UPDATE socket_slots SET ${kind} = greatest(${kind} - ?, 0) WHERE client_key = ? AND process_id = ?`, [
        count,
        client,
        this.processId,
      ])
      .then(undefined, (error: unknown) => this.failed(error));
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.beating;
    try {
      await this.knex.raw('DELETE FROM socket_slots WHERE process_id = ?', [this.processId]);
      await this.knex.raw('DELETE FROM socket_slot_processes WHERE process_id = ?', [this.processId]);
    } catch (error) {
      this.log.warn({ err: error }, 'graphql-ws slots of this process left to expire');
    }
  }

  /** The first take announces the process (its rows count for others only once it has a live row), then it beats. */
  private start(): Promise<void> {
    this.started ??= this.beat().then(() => {
      this.heartbeat = setInterval(() => {
        this.beating ??= this.beat().finally(() => (this.beating = undefined));
      }, this.timing.heartbeatMs).unref();
    });
    return this.started;
  }

  private async beat(): Promise<void> {
    try {
      const { rows } = await this.knex.raw(
        `INSERT INTO socket_slot_processes (process_id, seen_at) VALUES (?, now())
         ON CONFLICT (process_id) DO UPDATE SET seen_at = now() RETURNING (xmax = 0) AS inserted`,
        [this.processId],
      );
      if (rows[0].inserted || this.dirty) await this.rewrite();
      await this.knex.raw('DELETE FROM socket_slots WHERE process_id = ? AND connections = 0 AND subscriptions = 0', [
        this.processId,
      ]);
      await this.knex.raw(
        `WITH gone AS (DELETE FROM socket_slot_processes WHERE seen_at < now() - make_interval(secs => ?) RETURNING process_id)
         DELETE FROM socket_slots WHERE process_id IN (SELECT process_id FROM gone)`,
        [this.timing.expiryMs / 1000],
      );
    } catch (error) {
      this.failed(error);
    }
  }

  /** This process's rows from its own counts; again at the next heartbeat if they changed meanwhile. */
  private async rewrite(): Promise<void> {
    this.dirty = false;
    const seen = this.held.changes;
    const { clients, connections, subscriptions } = this.held.rows();
    await this.knex.transaction(async (trx) => {
      await trx.raw('DELETE FROM socket_slots WHERE process_id = ?', [this.processId]);
      await trx.raw(
        `INSERT INTO socket_slots (process_id, client_key, connections, subscriptions)
         SELECT ?, * FROM unnest(?::text[], ?::int[], ?::int[])`,
        [this.processId, clients, connections, subscriptions],
      );
    });
    if (this.held.changes !== seen) this.dirty = true;
  }

  private failed(error: unknown): void {
    this.dirty = true;
    this.log.warn({ err: error }, 'graphql-ws slots counted by this process alone until the database answers');
  }
}
