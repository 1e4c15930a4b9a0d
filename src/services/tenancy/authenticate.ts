import type { EntityManager } from '@mikro-orm/postgresql';
import type { EditorSession, Tenant } from '../context';
import { digestSecret, sameDigest } from './credential-digest';
import { isEnvironment } from '../../domain/environment';
import { UnauthenticatedError, ValidationError } from '../../domain/errors';
import { isSafeText } from '../../domain/safe-text';
import type { CachedCredential, CredentialCache } from './credential-cache';
import type { AuthFailureLimiter } from './auth-failures';

type CredentialRow = CachedCredential;

/** Who a request is: a client credential's tenant, or an editor session's (its project's client, reaching that project only). */
export interface Identity {
  tenant: Tenant;
  /** Set for an editor session: the one project it may reach. */
  projectScope?: string;
  /** Set for an editor session: what ends it (a socket watches for it). */
  editorSession?: EditorSession;
}

/**
 * The credentials a request presents, wherever its transport carries them. HTTP: the `X-Service`,
 * `X-Editor-Project` and `X-Editor-Key` headers. graphql-ws: the `connection_init` payload's
 * `accessKey` + `accessSecret`, `editorProject` and `editorKey`, each in place of the upgrade
 * request's header of its kind.
 */
export interface Presented {
  /** The `X-Service` header's JSON text, or the `connection_init` payload that carries `accessKey`. */
  clientCredential?: { header: string | string[] } | { payload: Record<string, unknown> };
  editorProject?: unknown;
  editorKey?: unknown;
}

/** Opens an editor session from its link's project id and key (EditorService). */
export interface EditorSessions {
  openSession(projectId: unknown, editorKey: unknown): Promise<EditorSession>;
}

/**
 * The one place a request's identity is decided, for HTTP and graphql-ws alike (docs/api.md,
 * Authentication). Precedence: a client credential when one is presented, else an editor link
 * where the surface accepts one (GraphQL), else 401. Every failure counts against the caller's
 * address (AuthFailureLimiter); once they are spent, every credential is refused with 429 (a
 * credential that would need the database before it gets there) except one the cache holds
 * with its right secret: known and unknown keys get the same answer.
 */
export class Authenticator {
  /** `em` is the root EntityManager; each check runs in its own fork. */
  constructor(
    private readonly em: EntityManager,
    private readonly pepper: string,
    private readonly failures: AuthFailureLimiter,
    private readonly editorSessions: EditorSessions,
    /** Saves the row lookup of `X-Service` checks while it hears every credential change (see CredentialCache). */
    private readonly cache?: CredentialCache,
  ) {}

  /** `address` is the caller's (behind TRUST_PROXY, the forwarded one). */
  async identify(presented: Presented, address: string, accepts: { editor: boolean }): Promise<Identity> {
    return this.countingFailures(address, async () => {
      const credential = presented.clientCredential;
      if (credential) {
        const tenant =
          'header' in credential
            ? await this.fromServiceHeader(credential.header, address)
            : await this.fromAccessKey(credential.payload, 'connection_init payload', address);
        return { tenant };
      }
      if (accepts.editor && presented.editorProject !== undefined) {
        await this.failures.refuseWhenSpent(address);
        const session = await this.editorSessions.openSession(presented.editorProject, presented.editorKey);
        return { tenant: session.tenant, projectScope: session.projectId, editorSession: session };
      }
      throw new UnauthenticatedError('the X-Service header is required', 'X-Service');
    });
  }

  /**
   * The identity `identify` would answer, decided without a promise when the request presents the
   * `X-Service` header of a credential the cache holds with the right secret: most requests of a
   * client. Undefined in every other case (no or malformed header, not cached, wrong secret), where
   * `identify` decides and counts a failure.
   */
  identifyFromCache(presented: Presented): Identity | undefined {
    const credential = presented.clientCredential;
    if (!this.cache || !credential || !('header' in credential)) return undefined;
    const pair = accessKeyPair(serviceHeaderJson(credential.header));
    const cached = pair && this.cache.get(pair.accessKey);
    return cached && this.opens(cached, pair.accessSecret) ? { tenant: tenantOf(cached) } : undefined;
  }

  /** The eCommerce family's `env` + `key` body fields. */
  async fromApiKey(env: unknown, key: unknown, address: string): Promise<Tenant> {
    if (!isEnvironment(env)) throw ValidationError.field('env', 'must be "dev" or "prod"', 'UNKNOWN_ENV');
    return this.countingFailures(address, async () => {
      if (typeof key !== 'string' || !key) throw new UnauthenticatedError('key is required', 'key');
      await this.failures.refuseWhenSpent(address);
      // The digest is the lookup key: an index probe, no secret compared byte by byte in JS.
      const [credential] = await this.credentialsWhere('api_key_digest', digestSecret(this.pepper, key));
      if (!credential) throw new UnauthenticatedError('key is not a valid API key', 'key');
      if (credential.env !== env) throw new UnauthenticatedError(`key is not a valid API key for env "${env}"`, 'key');
      return tenantOf(credential);
    });
  }

  private async countingFailures<T>(address: string, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (error instanceof UnauthenticatedError) await this.failures.count(address);
      throw error;
    }
  }

  /** The PWA family's `X-Service` header: JSON `{accessKey, accessSecret}`. */
  private async fromServiceHeader(header: string | string[], address: string): Promise<Tenant> {
    const parsed = serviceHeaderJson(header);
    if (parsed === NOT_JSON)
      throw new UnauthenticatedError(
        'the X-Service header must be a JSON object {accessKey, accessSecret}',
        'X-Service',
      );
    return this.fromAccessKey(parsed, 'X-Service', address);
  }

  private async fromAccessKey(payload: unknown, path: string, address: string): Promise<Tenant> {
    const pair = accessKeyPair(payload);
    if (!pair) throw new UnauthenticatedError(`${path} must carry the strings accessKey and accessSecret`, path);
    let credential = this.cache?.get(pair.accessKey);
    if (!credential) {
      await this.failures.refuseWhenSpent(address);
      [credential] = await this.credentialsWhere('access_key', pair.accessKey);
      if (credential) this.cache?.set(pair.accessKey, credential);
    }
    if (!credential || !this.opens(credential, pair.accessSecret)) {
      // A key found in the cache skipped the check above: a spent address gets 429 for it too, so
      // guesses at a known key are limited, and a known key answers as an unknown one does.
      await this.failures.refuseWhenSpent(address);
      throw new UnauthenticatedError(`${path} carries an unknown accessKey or a wrong accessSecret`, path);
    }
    return tenantOf(credential);
  }

  /** Whether `accessSecret` is the credential's (its digest under the pepper, compared in constant time). */
  private opens(credential: CredentialRow, accessSecret: string): boolean {
    return sameDigest(credential.access_secret_digest, digestSecret(this.pepper, accessSecret));
  }

  /**
   * Runs on every request, so it is one indexed query without entity hydration, several times
   * cheaper than the same read through the ORM (docs/performance.md). Crosses tenants: it runs before the
   * tenant is known, to find it. Raw SQL, so the tenant filter does not apply.
   */
  private credentialsWhere(column: 'access_key' | 'api_key_digest', value: string) {
    return this.em.getConnection().execute<CredentialRow[]>(
      `SELECT cc.access_secret_digest, cc.env, c.id AS client_id, c.name AS client_name
         FROM client_credentials cc JOIN clients c ON c.id = cc.client_id
        WHERE cc.${column} = ?`,
      [value],
    );
  }
}

const NOT_JSON = Symbol('not JSON');

/** The `X-Service` header's JSON value (its first copy when sent twice). */
function serviceHeaderJson(header: string | string[]): unknown {
  try {
    return JSON.parse(Array.isArray(header) ? header[0] : header);
  } catch {
    return NOT_JSON;
  }
}

/** The accessKey + accessSecret a payload carries, when both are non-empty strings and the key is safe text. */
function accessKeyPair(payload: unknown): { accessKey: string; accessSecret: string } | undefined {
  const { accessKey, accessSecret } = (payload ?? {}) as Record<string, unknown>;
  if (
    typeof accessKey !== 'string' ||
    typeof accessSecret !== 'string' ||
    !accessKey ||
    !accessSecret ||
    !isSafeText(accessKey)
  )
    return undefined;
  return { accessKey, accessSecret };
}

function tenantOf(credential: CredentialRow): Tenant {
  return { clientId: credential.client_id, clientName: credential.client_name, env: credential.env };
}
