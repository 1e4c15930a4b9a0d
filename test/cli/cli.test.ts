import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';

const run = promisify(execFile);

describe('operator CLI (npm run cli)', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

  /** Runs the README's command against the test database and DATA_DIR (so the same pepper). */
  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args], {
        env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: api.config.dataDir, LOG_LEVEL: 'warn' },
      });
      return { code: 0, stdout, stderr: '' };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const listProducts = (key: string, env = 'dev') =>
    post(api.url, '/api/v2/product/list-product.php', { env, key, os: 'web' });

  it('creates a client and prints exactly the documented JSON; its keys work at once', async () => {
    const { code, stdout } = await cli('client', 'create', '--name', 'CLI shop', '--json');
    expect(code).toBe(0);
    const issued = JSON.parse(stdout);
    expect(Object.keys(issued)).toEqual(['clientId', 'name', 'credentials']);
    expect(issued.name).toBe('CLI shop');
    for (const env of ['dev', 'prod']) {
      expect(Object.keys(issued.credentials[env]).sort()).toEqual(['accessKey', 'accessSecret', 'apiKey']);
      expect((await listProducts(issued.credentials[env].apiKey, env)).status).toBe(200);
    }
    // Only digests are stored: no secret appears anywhere in the credentials table.
    const orm = await api.orm();
    const rows = await orm.em
      .getConnection()
      .execute('SELECT * FROM client_credentials WHERE client_id = ?', [issued.clientId]);
    const stored = JSON.stringify(rows);
    expect(rows).toHaveLength(2);
    for (const env of ['dev', 'prod']) {
      expect(stored).not.toContain(issued.credentials[env].accessSecret);
      expect(stored).not.toContain(issued.credentials[env].apiKey);
      expect(stored).toContain(issued.credentials[env].accessKey);
    }
  });

  it("sets a client's shop origins, which the editor's CSP then lets frame it; a bad origin is refused by name and changes nothing", async () => {
    const issued = JSON.parse((await cli('client', 'create', '--name', 'Framing shop', '--json')).stdout);
    const set = await cli(
      'client',
      'shop-origins',
      '--client',
      issued.clientId,
      '--origin',
      'https://Shop.Example',
      '--origin',
      'https://*.shop.example',
      '--json',
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      clientId: issued.clientId,
      shopOrigins: ['https://shop.example', 'https://*.shop.example'],
    });
    const refused = await cli(
      'client',
      'shop-origins',
      '--client',
      issued.clientId,
      '--origin',
      'https://ok.example',
      '--origin',
      'http://shop.example/path',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('INVALID_SHOP_ORIGIN');
    expect(refused.stderr).toContain('origin[1]');
    // Issue 39: a wildcard for every site, or for a top-level domain, and hosts that are not names, are refused by name; nothing changes.
    const wildcards = await cli(
      'client',
      'shop-origins',
      '--client',
      issued.clientId,
      '--origin',
      'https://*',
      '--origin',
      'https://*.com',
      '--origin',
      'https://sh*p.example',
      '--origin',
      'https://shop',
    );
    expect(wildcards.code).toBe(1);
    for (const field of ['origin[0]', 'origin[1]', 'origin[2]', 'origin[3]']) expect(wildcards.stderr).toContain(field);
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'framed', sku: 'PB-HC-A4-L', psp: 'local', marketId: 0 },
      serviceHeader(issued.credentials.dev),
    );
    const editor = await fetch(generated.body.url);
    expect(editor.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://shop.example https://*.shop.example',
    );
    expect((await cli('client', 'shop-origins', '--client', issued.clientId)).code).toBe(0);
    expect((await fetch(generated.body.url)).headers.get('content-security-policy')).toContain(
      "frame-ancestors 'none'",
    );
  });

  it('lists clients and rotates one environment, invalidating only its old keys', async () => {
    const issued = JSON.parse((await cli('client', 'create', '--name', 'Rotating shop', '--json')).stdout);
    const list = JSON.parse((await cli('client', 'list', '--json')).stdout);
    expect(list.find((c: any) => c.clientId === issued.clientId)).toMatchObject({
      name: 'Rotating shop',
      accessKeys: { dev: issued.credentials.dev.accessKey, prod: issued.credentials.prod.accessKey },
    });

    const rotated = JSON.parse(
      (await cli('client', 'rotate', '--client', issued.clientId, '--env', 'dev', '--json')).stdout,
    );
    expect(Object.keys(rotated.credentials)).toEqual(['dev']);
    expect((await listProducts(issued.credentials.dev.apiKey)).status).toBe(401);
    expect((await listProducts(rotated.credentials.dev.apiKey)).status).toBe(200);
    expect((await listProducts(issued.credentials.prod.apiKey, 'prod')).status).toBe(200);
  });

  it('rotation stops an X-Service key that the API had just accepted (its credential cache is emptied on commit)', async () => {
    const issued = JSON.parse((await cli('client', 'create', '--name', 'Cached shop', '--json')).stdout);
    const projects = (credentials: { accessKey: string; accessSecret: string }) =>
      request(api.url, 'GET', '/v2/project/list?user=someone', { headers: serviceHeader(credentials) });
    // Accepted twice: the second check is answered from the cache.
    expect((await projects(issued.credentials.dev)).status).toBe(200);
    expect((await projects(issued.credentials.dev)).status).toBe(200);
    // A wrong secret for a cached key is still refused: the cache holds the digest, not a verdict.
    expect(
      (await projects({ ...issued.credentials.dev, accessSecret: `${issued.credentials.dev.accessSecret}x` })).status,
    ).toBe(401);
    const rotated = JSON.parse(
      (await cli('client', 'rotate', '--client', issued.clientId, '--env', 'dev', '--json')).stdout,
    );
    expect((await projects(issued.credentials.dev)).status).toBe(401);
    expect((await projects(rotated.credentials.dev)).status).toBe(200);
  });

  it('imports a catalogue for one client from a JSON file, and refuses an invalid one whole', async () => {
    const issued = JSON.parse((await cli('client', 'create', '--name', 'Importing shop', '--json')).stdout);
    const demo = JSON.parse(await readFile(new URL('../../catalogue/demo.json', import.meta.url), 'utf8'));
    const small = { ...demo, baseUrl: 'https://cdn.shop.test/img/', products: demo.products.slice(0, 2) };
    const file = path.join(api.config.dataDir, 'small.json');
    await writeFile(file, JSON.stringify(small));
    const imported = await cli('catalogue', 'import', '--client', issued.clientId, file);
    expect(imported.code).toBe(0);
    const after = await listProducts(issued.credentials.dev.apiKey);
    expect(after.body.products).toHaveLength(2);
    expect(after.body.baseUrl).toBe('https://cdn.shop.test/img/');

    const broken = {
      ...demo,
      products: [
        { ...demo.products[0], categoryId: 999 },
        { ...demo.products[1], prices: [{ marketId: 77, price: 1, extraCostPerPage: 0 }] },
      ],
    };
    await writeFile(file, JSON.stringify(broken));
    const refused = await cli('catalogue', 'import', '--client', issued.clientId, file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('products[0].categoryId');
    expect(refused.stderr).toContain('products[1].prices');
    expect((await listProducts(issued.credentials.dev.apiKey)).body.products).toHaveLength(2);
  });

  it('explains its usage on a wrong command', async () => {
    const { code, stderr } = await cli('client', 'create');
    expect(code).toBe(2);
    expect(stderr).toContain('--name');
  });
});
