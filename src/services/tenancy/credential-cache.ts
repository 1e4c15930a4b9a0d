import createSubscriber, { type Subscriber } from 'pg-listen';
import type { Logger } from 'pino';
import type { Environment } from '../../domain/environment';

/** Committed with every change of stored credentials (rotation), so every API process forgets what it cached. */
export const CREDENTIALS_CHANGED_CHANNEL = 'credentials_changed';
/** How the listening connection names itself in pg_stat_activity. */
const CREDENTIAL_LISTENER = 'photobook-credentials';

export interface CachedCredential {
  access_secret_digest: string;
  env: Environment;
  client_id: string;
  client_name: string;
}

/**
 * The credential rows of recent `X-Service` checks, by accessKey, so that a request costs no
 * credential query, the larger part of a lean read's cost (docs/performance.md). The secret is
 * still digested and compared on every
 * request; only the row lookup is saved. Safe only while it hears every change: it is used while
 * its LISTEN connection is up, emptied on every `credentials_changed` notification and on every
 * (re)connection, and entries expire after `ttlMs` as a backstop for a connection that died
 * without anyone noticing yet (pg-listen checks it every 30 s).
 */
export class CredentialCache {
  private readonly entries = new Map<string, { row: CachedCredential; until: number }>();
  private live = false;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(accessKey: string): CachedCredential | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(accessKey);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.row;
    this.entries.delete(accessKey);
    return undefined;
  }

  set(accessKey: string, row: CachedCredential): void {
    if (!this.live) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(accessKey, { row, until: Date.now() + this.ttlMs });
  }

  /** Used while `true`; emptied on every change of state. */
  setLive(live: boolean): void {
    this.live = live;
    this.entries.clear();
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Keeps `cache` in step with `credentials_changed` notifications; the cache stays unused until the LISTEN is up. */
export async function watchCredentialChanges(
  databaseUrl: string,
  cache: CredentialCache,
  log: Logger,
): Promise<{ stop(): Promise<void> }> {
  const subscriber: Subscriber<{ [CREDENTIALS_CHANGED_CHANNEL]: unknown }> = createSubscriber(
    { connectionString: databaseUrl, application_name: CREDENTIAL_LISTENER },
    { retryTimeout: Infinity },
  );
  subscriber.notifications.on(CREDENTIALS_CHANGED_CHANNEL, () => cache.clear());
  subscriber.events.on('error', (error) => {
    cache.setLive(false);
    log.error({ err: error }, 'credential change listener failed; credentials are looked up on every request');
  });
  subscriber.events.on('reconnect', () => cache.setLive(false));
  let listening = false;
  // After a reconnect pg-listen LISTENs again before it says so; the first connection says so before we LISTEN.
  subscriber.events.on('connected', () => listening && cache.setLive(true));
  await subscriber.connect();
  await subscriber.listenTo(CREDENTIALS_CHANGED_CHANNEL);
  listening = true;
  cache.setLive(true);
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      cache.setLive(false);
      stopped ??= subscriber.close().catch(() => undefined);
      return stopped;
    },
  };
}
