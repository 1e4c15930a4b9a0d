import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration } from '../src/config';

describe('configuration', () => {
  it('has defaults that run a developer machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4000, publicUrl: 'http://127.0.0.1:4000', allowLoopbackUrls: false, printer: 'local' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.temporal).toBeUndefined();
    expect(config.durations.deletionRetentionMs).toBe(2 * 86_400_000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PUBLIC_URL', 'not a url'],
    ['FRONTEND_URL', 'ftp://editor'],
    ['ALLOW_LOOPBACK_URLS', 'maybe'],
    ['PRINTER', 'fax'],
    ['CREDENTIAL_PEPPER', 'short'],
    ['TZ', 'Mars/Olympus'],
    ['LOG_LEVEL', 'loud'],
    ['PROJECT_TTL', '3 weeks'],
    ['PSP_WEBHOOK_SECRETS', 'printhub=not-base64!'],
    ['PSP_WEBHOOK_SECRETS', 'no-equals-sign'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('reads durations with units so tests can run timers in seconds', () => {
    expect(parseDuration('X', '500ms')).toBe(500);
    expect(parseDuration('X', '30s')).toBe(30_000);
    expect(parseDuration('X', '2d')).toBe(172_800_000);
    expect(loadConfig({ DELETION_RETENTION: '3s' }).durations.deletionRetentionMs).toBe(3000);
    expect(loadConfig({}).durations.workflowRetentionMs).toBe(14 * 86_400_000);
    expect(loadConfig({ WORKFLOW_RETENTION: '2h' }).durations.workflowRetentionMs).toBe(7_200_000);
  });

  it('configures Temporal only when TEMPORAL_ADDRESS is set', () => {
    expect(loadConfig({ TEMPORAL_ADDRESS: 'localhost:7233' }).temporal).toEqual({ address: 'localhost:7233', namespace: 'default', taskQueue: 'photobook' });
  });
});
