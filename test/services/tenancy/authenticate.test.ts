import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../../src/db/orm-config';
import { Authenticator, type Presented } from '../../../src/services/tenancy/authenticate';
import { AuthFailureLimiter } from '../../../src/services/tenancy/auth-failures';
import { CredentialCache } from '../../../src/services/tenancy/credential-cache';
import { digestSecret } from '../../../src/services/tenancy/credential-digest';
import { LimitStore } from '../../../src/services/tenancy/limit-store';
import { UnauthenticatedError } from '../../../src/domain/errors';
import { createTestDatabase } from '../../support/harness';

const PEPPER = 'a pepper of the test, long enough to be one';
const ACCESS_KEY = 'as_dev_cachedkey';
const SECRET = 'the right secret';
const row = {
  access_secret_digest: digestSecret(PEPPER, SECRET),
  env: 'dev' as const,
  client_id: '00000000-0000-4000-8000-000000000001',
  client_name: 'Cached shop',
};
const header = (accessKey: unknown, accessSecret: unknown): Presented => ({
  clientCredential: { header: JSON.stringify({ accessKey, accessSecret }) },
});

describe('Authenticator.identifyFromCache', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let orm: MikroORM;
  let cache: CredentialCache;
  let authenticator: Authenticator;

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await MikroORM.init(ormConfig(database.url, { poolMax: 2 }));
    cache = new CredentialCache();
    const editorSessions = {
      openSession: () => Promise.reject(new UnauthenticatedError('no editor sessions here', 'X-Editor-Project')),
    };
    authenticator = new Authenticator(
      orm.em,
      PEPPER,
      new AuthFailureLimiter(10, 60_000, LimitStore.memory()),
      editorSessions,
      cache,
    );
  });
  afterAll(async () => {
    await orm.close();
    await database.drop();
  });

  it('answers what identify answers for a cached credential with its right secret, without a promise', async () => {
    cache.setLive(true);
    cache.set(ACCESS_KEY, row);
    const tenant = { clientId: row.client_id, clientName: row.client_name, env: 'dev' };
    expect(authenticator.identifyFromCache(header(ACCESS_KEY, SECRET))).toEqual({ tenant });
    expect(await authenticator.identify(header(ACCESS_KEY, SECRET), '127.0.0.1', { editor: false })).toEqual({
      tenant,
    });
  });

  it('leaves every other case to identify, which refuses it: wrong secret, unknown key, malformed header, a socket payload, a cache not listening', async () => {
    cache.setLive(true);
    cache.set(ACCESS_KEY, row);
    const refused: Presented[] = [
      header(ACCESS_KEY, 'a wrong secret'),
      header('as_dev_unknown', SECRET),
      header(ACCESS_KEY, 42),
      header(`${ACCESS_KEY}\u0000`, SECRET),
      { clientCredential: { header: '{not json' } },
      { clientCredential: { payload: { accessKey: ACCESS_KEY, accessSecret: 'a wrong secret' } } },
      { editorProject: 'p-000000000000000000000000' },
    ];
    for (const presented of refused) {
      expect(authenticator.identifyFromCache(presented)).toBeUndefined();
      await expect(authenticator.identify(presented, '127.0.0.1', { editor: true })).rejects.toBeInstanceOf(
        UnauthenticatedError,
      );
    }
    cache.setLive(false);
    expect(authenticator.identifyFromCache(header(ACCESS_KEY, SECRET))).toBeUndefined();
  });
});
