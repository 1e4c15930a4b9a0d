import type { EntityManager } from '@mikro-orm/postgresql';
import { Client, ClientCredential } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import { ENVIRONMENTS, type Environment } from '../../domain/environment';
import { digestSecret, randomToken } from '../tenancy/credential-digest';
import { CREDENTIALS_CHANGED_CHANNEL } from '../tenancy/credential-cache';
import { loadDemoCatalogue, replaceCatalogue } from '../catalogue/catalogue-import';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { parseShopOrigins } from './shop-origins';

/** Secrets are shown once, when issued; only their digests are stored. */
export interface IssuedCredentials {
  accessKey: string;
  accessSecret: string;
  apiKey: string;
}

export interface IssuedClient {
  clientId: string;
  name: string;
  credentials: Record<Environment, IssuedCredentials>;
}

/**
 * Operator actions on clients (tenants), used by the CLI. They cross tenants by nature: the
 * credential queries say so with `ACROSS_TENANTS`.
 */
export class ClientAdmin {
  constructor(
    private readonly em: EntityManager,
    private readonly pepper: string,
  ) {}

  /** Creates a client with dev and prod credentials and the demo catalogue, all or nothing. */
  async create(name: string): Promise<IssuedClient> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 200) throw ValidationError.field('name', 'must be 1 to 200 characters');
    const catalogue = await loadDemoCatalogue();
    return this.em.transactional(async (tx) => {
      const client = tx.create(Client, { name: trimmed });
      const credentials = {} as Record<Environment, IssuedCredentials>;
      for (const env of ENVIRONMENTS) {
        const issued = newCredentials(env);
        tx.create(ClientCredential, { client, env, ...this.digests(issued) });
        credentials[env] = issued;
      }
      await tx.flush();
      await replaceCatalogue(tx, client.id, catalogue);
      return { clientId: client.id, name: client.name, credentials };
    });
  }

  async list(): Promise<{ clientId: string; name: string; createdAt: string; accessKeys: Record<string, string> }[]> {
    const credentials = await this.em.find(
      ClientCredential,
      {},
      { populate: ['client'], orderBy: { client: { createdAt: 'asc' } }, ...ACROSS_TENANTS },
    );
    const byClient = new Map<
      string,
      { clientId: string; name: string; createdAt: string; accessKeys: Record<string, string> }
    >();
    for (const c of credentials) {
      const entry = byClient.get(c.client.id) ?? {
        clientId: c.client.id,
        name: c.client.name,
        createdAt: c.client.createdAt.toISOString(),
        accessKeys: {},
      };
      entry.accessKeys[c.env] = c.accessKey;
      byClient.set(c.client.id, entry);
    }
    return [...byClient.values()];
  }

  /** Replaces the credentials of one or both environments; the old ones stop working at once. */
  async rotate(clientId: string, envs: readonly Environment[] = ENVIRONMENTS): Promise<IssuedClient> {
    return this.em.transactional(async (tx) => {
      const client = await tx.findOne(Client, { id: clientId });
      if (!client) throw new NotFoundError('client', clientId, 'clientId');
      const credentials = {} as Record<Environment, IssuedCredentials>;
      for (const env of envs) {
        const issued = newCredentials(env);
        const current = await tx.findOne(ClientCredential, { client, env }, ACROSS_TENANTS);
        if (current) Object.assign(current, this.digests(issued), { issuedAt: new Date() });
        else tx.create(ClientCredential, { client, env, ...this.digests(issued) });
        credentials[env] = issued;
      }
      await tx.flush();
      // Every API process empties its credential cache when this commits (CredentialCache).
      await tx
        .getConnection()
        .execute('SELECT pg_notify(?, ?)', [CREDENTIALS_CHANGED_CHANNEL, client.id], 'run', tx.getTransactionContext());
      return { clientId: client.id, name: client.name, credentials };
    });
  }

  /** Replaces the shop origins that may frame the client's editor (shop-origins.ts); none: no page may. */
  async setShopOrigins(
    clientId: string,
    origins: readonly string[],
  ): Promise<{ clientId: string; shopOrigins: string[] }> {
    const shopOrigins = parseShopOrigins(origins, 'origin');
    return this.em.transactional(async (tx) => {
      const client = await tx.findOne(Client, { id: clientId });
      if (!client) throw new NotFoundError('client', clientId, 'clientId');
      client.shopOrigins = shopOrigins;
      return { clientId: client.id, shopOrigins };
    });
  }

  private digests(issued: IssuedCredentials) {
    return {
      accessKey: issued.accessKey,
      accessSecretDigest: digestSecret(this.pepper, issued.accessSecret),
      apiKeyDigest: digestSecret(this.pepper, issued.apiKey),
    };
  }
}

function newCredentials(env: Environment): IssuedCredentials {
  return {
    accessKey: randomToken(`ak_${env}_`, 15),
    accessSecret: randomToken(`as_${env}_`, 32),
    apiKey: randomToken(`key_${env}_`, 24),
  };
}
