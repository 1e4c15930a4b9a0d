import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Which process executes a run of the embedded runner: the one holding the run's session-level
 * advisory lock. All locks of an engine live on one dedicated connection (not the ORM pool, whose
 * connections are shared and returned after each query), so they cost one connection per process,
 * and PostgreSQL releases them by itself when the process dies. Keys are
 * (hashtext('photobook.workflow_run'), hashtext(workflowId)); a hash collision only makes two runs
 * wait for each other, never run twice. If the connection breaks, exclusivity is gone: `onLost` is
 * called so the engine stops its executions (they resume at the next sweep).
 */
export class RunLocks {
  private client?: pg.Client;
  private connecting?: Promise<pg.Client>;
  private held = new Set<string>();
  private closed = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
    private readonly onLost: (error: Error) => void,
  ) {}

  static connectionOf(orm: MikroORM): pg.ClientConfig {
    const config = orm.config;
    const clientUrl = config.get('clientUrl');
    const password = config.get('password');
    return {
      ...(clientUrl
        ? { connectionString: clientUrl }
        : {
            host: config.get('host'),
            port: config.get('port'),
            user: config.get('user'),
            password: typeof password === 'string' ? password : undefined,
            database: config.get('dbName'),
          }),
      application_name: 'photobook-workflow-locks',
      keepAlive: true,
    };
  }

  /** True when this process now holds the run's lock (and must `unlock` it when done). */
  async tryLock(workflowId: string): Promise<boolean> {
    if (this.held.has(workflowId)) return false;
    const client = await this.connect();
    const { rows } = await client.query<{ locked: boolean }>(
      `select pg_try_advisory_lock(hashtext('photobook.workflow_run'), hashtext($1)) as locked`,
      [workflowId],
    );
    if (!rows[0].locked) return false;
    if (client !== this.client) {
      // The connection broke while we asked: the lock went with it.
      return false;
    }
    this.held.add(workflowId);
    return true;
  }

  async unlock(workflowId: string): Promise<void> {
    if (!this.held.delete(workflowId) || !this.client) return;
    await this.client.query(`select pg_advisory_unlock(hashtext('photobook.workflow_run'), hashtext($1))`, [workflowId]);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<pg.Client> {
    if (this.closed) throw new Error('workflow run locks are closed');
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client(this.connection);
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client, new Error('workflow lock connection ended')));
      try {
        await client.connect();
      } catch (error) {
        this.connecting = undefined;
        throw error;
      }
      this.client = client;
      this.connecting = undefined;
      return client;
    })();
    return this.connecting;
  }

  private lost(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.held.clear();
    client.end().catch(() => {});
    if (this.closed) return;
    this.log.error({ err: error }, 'workflow lock connection lost; stopping executions so no run executes twice');
    this.onLost(error);
  }
}
