import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import { scopeToTenant } from '../db/tenant-filter';
import type { Environment } from '../domain/environment';

/** Who is calling: the client (tenant) and which of its partitions, sandbox or live. */
export interface Tenant {
  clientId: string;
  clientName: string;
  env: Environment;
}

/** An editor session (src/services/editor/editor-service.ts): the project its link opened, its tenant, and what ends it. */
export interface EditorSession {
  tenant: Tenant;
  projectId: string;
  /** The owner the link was issued to: a status event of the project naming another (a transfer) ends the session. */
  owner: string;
  /** When the project expires unless it is ordered first (ms since the epoch): the session is checked again then. */
  expiresAt: number;
  /** The seed of the key the session was opened with: another seed in the row (a transfer) ends it. Opens nothing without the pepper. */
  seed: string;
}

/**
 * Passed first to every service call. `em` carries the tenant filter's parameters, so every
 * query of a tenant-owned entity sees only this client and environment, whether or not it names
 * them: another client's rows are "not found" by construction.
 */
export interface RequestContext {
  tenant: Tenant;
  /** A fork of the ORM's EntityManager, private to this request and scoped to its tenant. */
  em: EntityManager;
  /**
   * The shared connection, for plain SQL: outside the tenant filter, so every statement names the
   * tenant itself. Reading through it makes no fork (a hot read's fork cost more than its SELECT).
   */
  db: AbstractSqlConnection;
  requestId: string;
  /** Set for an editor session: the one project it may reach (src/graphql/editor-scope.ts). */
  projectScope?: string;
}

/**
 * The one place a request's EntityManager is made: a fork of the root, scoped to the caller, made
 * on first use. A GraphQL subscription that only listens, or a read that goes straight to SQL,
 * never needs one, and every idle subscription holding a fork would cost memory for nothing
 * (docs/performance.md).
 */
export function createRequestContext(
  root: EntityManager,
  tenant: Tenant,
  requestId: string,
  projectScope?: string,
): RequestContext {
  return new LazyForkContext(root, tenant, requestId, projectScope);
}

/**
 * A class rather than an object literal with a getter: V8 keeps such a literal's properties in a
 * dictionary, a few hundred bytes more for each of 10,000 subscriptions. Spreading it copies its
 * fields but not `em` (a getter of the prototype): whoever spreads it sets `em` itself.
 */
class LazyForkContext implements RequestContext {
  readonly db: AbstractSqlConnection;
  private fork?: EntityManager;

  constructor(
    private readonly root: EntityManager,
    readonly tenant: Tenant,
    readonly requestId: string,
    readonly projectScope?: string,
  ) {
    this.db = root.getConnection();
  }

  get em(): EntityManager {
    return (this.fork ??= scopeToTenant(this.root.fork(), this.tenant));
  }
}
