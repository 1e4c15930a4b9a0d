import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { serviceHeader } from '../support/http';
import { graphql } from '../support/graphql';

const run = promisify(execFile);

describe('operator CLI: print partner accounts', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

  const cli = async (args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run('npm', ['run', '--silent', 'cli', '--', ...args], {
        env: {
          ...process.env,
          DATABASE_URL: api.databaseUrl,
          DATA_DIR: api.config.dataDir,
          PUBLIC_URL: api.config.publicUrl,
          LOG_LEVEL: 'warn',
          ...env,
        },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it('sets an account from the environment, seals it, shows only its hint and URL, and the shop sees the same account', async () => {
    const client = await api.createClient('CLI partner shop');
    const set = await cli(
      [
        'partner',
        'set',
        '--client',
        client.clientId,
        '--partner',
        'lulu',
        '--env',
        'prod',
        '--shipping',
        'express=EXPRESS',
        '--json',
      ],
      { PRINT_PARTNER_CLIENT_KEY: 'lulu-client-key-42', PRINT_PARTNER_CLIENT_SECRET: 'lulu-secret-never-shown' },
    );
    expect(set.code, set.stderr).toBe(0);
    const view = JSON.parse(set.stdout);
    expect(view).toMatchObject({
      partner: 'lulu',
      env: 'prod',
      credentialHint: '…y-42',
      shippingMethods: { express: 'EXPRESS' },
    });
    expect(set.stdout).not.toContain('lulu-secret-never-shown');

    // Sealed at rest.
    const rows = await (await api.orm()).em.getConnection().execute('SELECT * FROM partner_accounts');
    expect(JSON.stringify(rows)).not.toContain('lulu-secret-never-shown');
    expect(JSON.stringify(rows)).not.toContain('lulu-client-key-42');

    const mine = await graphql(
      api.url,
      serviceHeader(client.credentials.prod),
      '{ partnerAccounts { partner callbackUrl } }',
    );
    expect(mine.data.partnerAccounts).toEqual([{ partner: 'lulu', callbackUrl: view.callbackUrl }]);

    const missing = await cli([
      'partner',
      'set',
      '--client',
      client.clientId,
      '--partner',
      'lulu',
      '--api-key',
      'abcdefgh123',
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('credentials.apiKey');

    expect(
      (await cli(['partner', 'remove', '--client', client.clientId, '--partner', 'lulu', '--env', 'prod'])).code,
    ).toBe(0);
    const list = await cli(['partner', 'list', '--client', client.clientId, '--env', 'prod', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([]);
  }, 120_000);
});
