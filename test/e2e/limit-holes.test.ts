import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';

/**
 * The holes issue 39 found in the published limits (docs/operations.md, Limits), each tried from
 * an address of its own (TRUST_PROXY=loopback believes the test's X-Forwarded-For).
 */
describe('limits without holes', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({ AUTH_FAILURES_MAX: '5', RATE_LIMIT_MAX: '4', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => api?.stop());

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const list = (headers: Record<string, string>) => request(api.url, 'GET', '/v2/project/list?user=u', { headers });
  const wrongSecretFor = (accessKey: string) => ({
    'x-service': JSON.stringify({ accessKey, accessSecret: `guess-${randomBytes(4).toString('hex')}` }),
  });
  const unknownKey = () => wrongSecretFor(`ak_${randomBytes(12).toString('hex')}`);
  const markets = (body: Record<string, unknown>, address: string) =>
    post(api.url, '/api/v2/misc/get-market.php', body, from(address));

  it('counts wrong secrets for a key held in the credential cache, and answers 429 once they are spent', async () => {
    const shop = await api.createClient('Shop whose key is cached');
    // Any request with the right secret puts the key in this process's cache.
    expect((await list({ ...serviceHeader(shop.credentials.dev), ...from('198.51.100.1') })).status).toBe(200);

    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await list({ ...wrongSecretFor(shop.credentials.dev.accessKey), ...from('203.0.113.1') })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // The shop itself, from the same address, still gets in with its secret (the cache checked it).
    expect((await list({ ...serviceHeader(shop.credentials.dev), ...from('203.0.113.1') })).status).toBe(200);
  });

  it('answers a known and an unknown key alike once an address has spent its failures, over REST and GraphQL', async () => {
    const shop = await api.createClient('Shop whose key exists');
    expect((await list({ ...serviceHeader(shop.credentials.dev), ...from('198.51.100.2') })).status).toBe(200);
    const guesser = from('203.0.113.2');
    for (let i = 0; i < 5; i++) expect((await list({ ...unknownKey(), ...guesser })).status).toBe(401);

    const known = await list({ ...wrongSecretFor(shop.credentials.dev.accessKey), ...guesser });
    const unknown = await list({ ...unknownKey(), ...guesser });
    const knownUncached = await list({ ...wrongSecretFor(shop.credentials.prod.accessKey), ...guesser });
    expect([known.status, unknown.status, knownUncached.status]).toEqual([429, 429, 429]);
    expect(known.body.code).toBe(unknown.body.code);
    expect(known.body.detail.replace(/\d+s$/, '')).toBe(unknown.body.detail.replace(/\d+s$/, ''));

    const query = { query: '{ markets { results { marketId } } }' };
    const graphqlKnown = await post(api.url, '/graphql', query, {
      ...wrongSecretFor(shop.credentials.dev.accessKey),
      ...guesser,
    });
    const graphqlUnknown = await post(api.url, '/graphql', query, { ...unknownKey(), ...guesser });
    expect([graphqlKnown.status, graphqlUnknown.status]).toEqual([429, 429]);
  });

  it('counts eCommerce calls with a fresh garbage key each time against their address', async () => {
    // A body that fails validation before any key is checked: the address's request budget (RATE_LIMIT_MAX=4).
    const malformed = [];
    for (let i = 0; i < 5; i++)
      malformed.push((await markets({ env: 'nope', key: randomBytes(8).toString('hex') }, '203.0.113.3')).status);
    expect(malformed).toEqual([400, 400, 400, 400, 429]);

    // A well-formed env with a garbage key and a bad field: the key is checked first (401), each a failure of the address.
    const guessed = [];
    for (let i = 0; i < 6; i++)
      guessed.push(
        (await markets({ env: 'dev', key: randomBytes(8).toString('hex'), latitude: 'north' }, '203.0.113.4')).status,
      );
    expect(guessed).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('counts requests for unknown routes against their address', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await request(api.url, 'GET', `/no/such/route/${i}`, { headers: from('203.0.113.5') })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429]);
    const limited = await request(api.url, 'POST', '/v2/nothing-here', { headers: from('203.0.113.5'), body: {} });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    // Another address is not affected.
    expect((await request(api.url, 'GET', '/no/such/route', { headers: from('203.0.113.6') })).status).toBe(404);
  });

  it('spends one budget per shop and environment, whether it presents its eCommerce key or its X-Service', async () => {
    const shop = await api.createClient('Shop with two credentials');
    const dev = shop.credentials.dev;
    const answers = [
      await list({ ...serviceHeader(dev), ...from('198.51.100.7') }),
      await markets({ env: 'dev', key: dev.apiKey }, '198.51.100.8'),
      await list({ ...serviceHeader(dev), ...from('198.51.100.9') }),
      await markets({ env: 'dev', key: dev.apiKey }, '198.51.100.10'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    expect((await markets({ env: 'dev', key: dev.apiKey }, '198.51.100.11')).status).toBe(429);
    expect((await list({ ...serviceHeader(dev), ...from('198.51.100.12') })).status).toBe(429);
    // The other environment has its own.
    expect((await markets({ env: 'prod', key: shop.credentials.prod.apiKey }, '198.51.100.13')).status).toBe(200);
  });
});
