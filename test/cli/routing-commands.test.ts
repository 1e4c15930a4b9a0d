import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { graphql } from '../support/graphql';
import { serviceHeader } from '../support/http';

const run = promisify(execFile);

describe('operator CLI: routing show|set', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

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

  it("sets a shop's routing per environment from a file, which the shop then reads over GraphQL; a bad rule is refused by name and changes nothing", async () => {
    const client = await api.createClient('CLI routing shop');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'routing-cli-'));
    const file = path.join(folder, 'routing.json');
    const routing = {
      rules: [{ match: { products: ['PB-HC-A4-P'], countries: ['us', 'CA'] }, printers: ['lulu', 'prodigi'] }],
      defaultPrinters: ['local'],
      holdWindowSeconds: 3600,
      acceptTimeoutSeconds: 300,
    };
    await writeFile(file, JSON.stringify(routing));
    const set = await cli('routing', 'set', '--client', client.clientId, '--env', 'prod', '--json', file);
    expect(set.code, set.stderr).toBe(0);
    const expected = {
      rules: [{ match: { products: ['PB-HC-A4-P'], countries: ['US', 'CA'] }, printers: ['lulu', 'prodigi'] }],
      defaultPrinters: ['local'],
      holdWindowSeconds: 3600,
      acceptTimeoutSeconds: 300,
    };
    expect(JSON.parse(set.stdout)).toEqual({ clientId: client.clientId, env: 'prod', ...expected });

    const read = `{ printRouting { rules { match { products countries } printers } defaultPrinters holdWindowSeconds acceptTimeoutSeconds } }`;
    expect((await graphql(api.url, serviceHeader(client.credentials.prod), read)).data.printRouting).toEqual(expected);
    // The sandbox is a shop of its own, and another client sees none of it.
    expect((await graphql(api.url, serviceHeader(client.credentials.dev), read)).data.printRouting.rules).toEqual([]);
    const other = await api.createClient('Other shop');
    expect((await graphql(api.url, serviceHeader(other.credentials.prod), read)).data.printRouting.rules).toEqual([]);

    await writeFile(file, JSON.stringify({ rules: [{ match: { countries: ['XX'] }, printers: ['local'] }] }));
    const refused = await cli('routing', 'set', '--client', client.clientId, '--env', 'prod', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('rules[0].match.countries[0]');
    const shown = await cli('routing', 'show', '--client', client.clientId, '--env', 'prod');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('PB-HC-A4-P to US,CA: lulu then prodigi');
    expect(shown.stdout).toContain('hold window: 3600 s');
  }, 120_000);
});
