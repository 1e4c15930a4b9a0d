import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_PEPPER_BYTES } from '../../src/config';
import { Client } from '../../src/db/entities';
import { startTestService } from '../support/harness';
import { startServiceProcess } from '../support/service-process';
import { graphql } from '../support/graphql';
import { serviceHeader } from '../support/http';

const STRONG = randomBytes(MIN_PEPPER_BYTES).toString('base64');

describe('NODE_ENV=production', () => {
  it.each([
    ['unset', undefined],
    ['the placeholder compose files used to carry', 'change-me-to-a-random-string-of-32-chars-or-more'],
    ['32 characters of text', 'this-pepper-is-32-characters-ok!'],
    ['one character repeated', 'a'.repeat(64)],
    ['the hex of 16 bytes', randomBytes(16).toString('hex')],
    ['the base64 of 24 bytes', randomBytes(24).toString('base64')],
    // Issue 39: 64 hex digits of 16 distinct characters, so long and varied enough for the checks above.
    ['a hex alphabet repeated', '0123456789abcdef'.repeat(4)],
    ['a random key pasted twice', randomBytes(16).toString('hex').repeat(2)],
    ['a counting run in random bytes', `${randomBytes(24).toString('hex')}0123456789abcdef`],
  ])('refuses a CREDENTIAL_PEPPER that is %s, naming the variable and what it must be', (_what, pepper) => {
    const env = { NODE_ENV: 'production', ...(pepper ? { CREDENTIAL_PEPPER: pepper } : {}) };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/CREDENTIAL_PEPPER .*at least 32 random bytes/);
    if (pepper) expect(() => loadConfig(env)).not.toThrow(pepper);
  });

  it.each([
    ['base64', STRONG],
    ['base64url', randomBytes(32).toString('base64url')],
    ['hex', randomBytes(32).toString('hex')],
  ])('accepts %s of 32 random bytes', (_encoding, pepper) => {
    expect(loadConfig({ NODE_ENV: 'production', CREDENTIAL_PEPPER: pepper }).production).toBe(true);
  });

  it('refuses the poison-flow test hook (TEST_EXHAUST_MEMORY_IN_ACTIVITY), which only tests may set', () => {
    const env = { NODE_ENV: 'production', CREDENTIAL_PEPPER: STRONG, TEST_EXHAUST_MEMORY_IN_ACTIVITY: 'planRender' };
    expect(() => loadConfig(env)).toThrow(/TEST_EXHAUST_MEMORY_IN_ACTIVITY is for tests only/);
    expect(loadConfig({ TEST_EXHAUST_MEMORY_IN_ACTIVITY: 'planRender' }).exhaustMemoryInActivity).toBe('planRender');
    expect(loadConfig({}).flowMaxRecoveryAttempts).toBe(3);
  });

  it('accepts drawn keys however they fall: 200 of each encoding (the pattern rule refuses about 1 in a million)', () => {
    for (let i = 0; i < 200; i++) {
      for (const pepper of [randomBytes(32).toString('hex'), randomBytes(32).toString('base64')]) {
        expect(() => loadConfig({ NODE_ENV: 'production', CREDENTIAL_PEPPER: pepper }), pepper).not.toThrow();
      }
    }
  });

  it('keeps the developer defaults outside production (a generated pepper, 32 characters when set)', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ CREDENTIAL_PEPPER: 'this-pepper-is-32-characters-ok!' }).credentialPepper).toBe(
      'this-pepper-is-32-characters-ok!',
    );
  });

  it('stops `npm start` before anything else, with the message naming CREDENTIAL_PEPPER', async () => {
    const started = startServiceProcess({
      NODE_ENV: 'production',
      CREDENTIAL_PEPPER: undefined,
      DATABASE_URL: 'postgres://127.0.0.1:9/none',
      PORT: '0',
    });
    await expect(started).rejects.toThrow(/exited with 1 .*CREDENTIAL_PEPPER is not set/s);
  });

  it('never seeds the demo client on an empty database', async () => {
    const api = await startTestService({ NODE_ENV: 'production', CREDENTIAL_PEPPER: STRONG });
    try {
      const orm = await api.orm();
      expect(await orm.em.fork().count(Client, {})).toBe(0);
      await expect(access(path.join(api.config.dataDir, 'demo-client.json'))).rejects.toThrow();
    } finally {
      await api.stop();
    }
  });

  it('seeds it outside production, so a fresh `npm start` answers real requests', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-demo-'));
    const api = await startTestService({ DATA_DIR: dataDir });
    try {
      // The credentials it wrote answer an authenticated request, as the README's first call does.
      const issued = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
      const answer = await graphql(api.url, serviceHeader(issued.credentials.dev), '{ webhook { url } }');
      expect(answer).toEqual({ data: { webhook: null } });
      const refused = await graphql(
        api.url,
        serviceHeader({ accessKey: issued.credentials.dev.accessKey, accessSecret: 'wrong' }),
        '{ webhook { url } }',
      );
      expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    } finally {
      await api.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
