import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import type { IssuedClient } from '../../src/services/clients/client-admin';

describe('Idempotency-Key on the POST routes of the REST facade', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ IDEMPOTENCY_RETENTION: '2s' });
    shop = await api.createClient('Retrying shop');
    auth = serviceHeader(shop.credentials.dev);
  });
  afterAll(() => api?.stop());

  const body = (userId: string) => ({ sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId });
  const generate = (payload: unknown, key: string, headers = auth) =>
    post(api.url, '/v2/generate', payload, { ...headers, 'idempotency-key': key });
  const projectsOf = async (userId: string) =>
    Number(
      (
        await (
          await api.orm()
        ).em
          .getConnection()
          .execute(
            `SELECT count(*) AS n FROM projects p JOIN end_users u ON u.id = p.owner_id WHERE u.external_id = ?`,
            [userId],
          )
      )[0].n,
    );

  it('answers a retry with the stored answer without doing the work again', async () => {
    const first = await generate(body('retry-user'), 'key-retry');
    expect(first.status).toBe(200);
    const retry = await generate({ ...body('retry-user') }, 'key-retry');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await projectsOf('retry-user')).toBe(1);
  });

  it('refuses the same key with another body with a 409 problem', async () => {
    expect((await generate(body('reuse-a'), 'key-reuse')).status).toBe(200);
    const reused = await generate(body('reuse-b'), 'key-reuse');
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await projectsOf('reuse-b')).toBe(0);
  });

  it('runs concurrent duplicates once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => generate(body('racer'), 'key-race')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'IDEMPOTENCY_KEY_IN_FLIGHT')).toBe(
      true,
    );
    expect(await projectsOf('racer')).toBe(1);
  });

  it('keeps keys per client and environment, and forgets them after the retention', async () => {
    expect((await generate(body('scoped'), 'key-scoped')).status).toBe(200);
    const prod = await generate(body('scoped'), 'key-scoped', serviceHeader(shop.credentials.prod));
    expect(prod.headers.get('idempotent-replayed')).toBeNull();
    const other = await api.createClient('Other shop');
    const otherAnswer = await generate(body('scoped'), 'key-scoped', serviceHeader(other.credentials.dev));
    expect(otherAnswer.headers.get('idempotent-replayed')).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 2100));
    const afterRetention = await generate(body('scoped'), 'key-scoped');
    expect(afterRetention.status).toBe(200);
    expect(afterRetention.headers.get('idempotent-replayed')).toBeNull();
    // Claiming a key clears the tenant's expired ones: the store holds only the retention's worth.
    const stale = await (await api.orm()).em
      .getConnection()
      .execute(`SELECT count(*) AS n FROM idempotency_keys WHERE key = 'key-retry'`);
    expect(Number(stale[0].n)).toBe(0);
  });

  it('stores no key for a request the schema refuses, and names a malformed key', async () => {
    expect((await generate({ ...body('bad'), userId: 42 }, 'key-invalid')).status).toBe(400);
    expect((await generate(body('valid-after-invalid'), 'key-invalid')).status).toBe(200);
    const malformed = await generate(body('x'), 'k'.repeat(300));
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('Idempotency-Key');
  });

  it('replays errors the request answered, too (the same 4xx, not a second attempt)', async () => {
    const unknown = { ...body('sku-user'), sku: 'NO-SUCH-SKU' };
    const first = await generate(unknown, 'key-422');
    expect(first.status).toBe(422);
    const retry = await generate(unknown, 'key-422');
    expect(retry.status).toBe(422);
    expect(retry.body.code).toBe(first.body.code);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('publishes the header with every POST a client calls in the OpenAPI document', async () => {
    const { body: document } = await request(api.url, 'GET', '/openapi.json');
    const posts = Object.entries(document.paths as Record<string, Record<string, any>>).filter(
      // Printers' and print partners' callbacks are not client calls.
      ([path, item]) => item.post && !path.startsWith('/v2/psp/') && !path.startsWith('/v2/printers/'),
    );
    expect(posts.length).toBeGreaterThan(5);
    for (const [path, item] of posts)
      expect(item.post.parameters, path).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key' }),
      );
  });

  it('honours idempotencyKey on GraphQL mutations that create things', async () => {
    const mutation =
      'mutation G($input: GenerateProjectInput!, $key: String) { generateProject(input: $input, idempotencyKey: $key) { url } }';
    const run = (userId: string) =>
      post(
        api.url,
        '/graphql',
        { query: mutation, variables: { input: { ...body(userId), marketId: '0' }, key: 'gql-key' } },
        auth,
      );
    const first = await run('gql-user');
    expect(first.body.errors).toBeUndefined();
    const retry = await run('gql-user');
    expect(retry.body).toEqual(first.body);
    expect(await projectsOf('gql-user')).toBe(1);
    const reused = await run('gql-other');
    expect(reused.body.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await projectsOf('gql-other')).toBe(0);
  });
});
