import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('has defaults that run a developer machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      publicUrl: 'http://127.0.0.1:4000',
      allowLoopbackUrls: false,
      printer: 'local',
    });
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
    ['FILE_URL_SECRET', 'short'],
    ['FILE_URL_TTL', 'soon'],
    ['PRINTER_FILE_URL_TTL', '1 week'],
    ['TZ', 'Mars/Olympus'],
    ['LOG_LEVEL', 'loud'],
    ['PROJECT_TTL', '3 weeks'],
    ['PHOTO_DOWNLOAD_TIMEOUT', '0'],
    ['BUILD_DOWNLOAD_DEADLINE', '0s'],
    ['BUILD_DOWNLOAD_DEADLINE', 'a minute'],
    ['CAMPAIGN_MAX_ROWS', '0'],
    ['PSP_WEBHOOK_SECRETS', 'printhub=not-base64!'],
    ['PSP_WEBHOOK_SECRETS', 'no-equals-sign'],
    ['TRUST_PROXY', '2'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'my-proxy.internal'],
    ['UNAUTHENTICATED_BODY_LIMIT', '0'],
    ['WS_MAX_PAYLOAD', 'big'],
    ['WS_CONNECTION_INIT_TIMEOUT', 'soon'],
    ['WS_CONNECTS_PER_ADDRESS', '-1'],
    ['AUTH_FAILURES_MAX', '0'],
    ['AUTH_FAILURES_WINDOW', 'a while'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('bounds photo downloads (10 s an attempt, 60 s a build) and campaign files (20,000 rows) unless told otherwise', () => {
    expect(loadConfig({}).durations).toMatchObject({ photoDownloadTimeoutMs: 10_000, buildDownloadDeadlineMs: 60_000 });
    expect(loadConfig({}).limits.campaignMaxRows).toBe(20_000);
    const tuned = loadConfig({
      PHOTO_DOWNLOAD_TIMEOUT: '2.5s',
      BUILD_DOWNLOAD_DEADLINE: '0.5m',
      CAMPAIGN_MAX_ROWS: '500',
    });
    expect(tuned.durations).toMatchObject({ photoDownloadTimeoutMs: 2_500, buildDownloadDeadlineMs: 30_000 });
    expect(tuned.limits.campaignMaxRows).toBe(500);
  });

  it("reads TRUST_PROXY as Fastify's trustProxy: off by default, everyone, or a list of proxies", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,2001:db8::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
      '2001:db8::1',
    ]);
  });

  it('signs file URLs for 15 minutes, printer file URLs for 7 days, unless told otherwise', () => {
    expect(loadConfig({}).durations).toMatchObject({ fileUrlTtlMs: 15 * 60_000, printerFileUrlTtlMs: 7 * 86_400_000 });
    expect(loadConfig({ FILE_URL_TTL: '30s' }).durations.fileUrlTtlMs).toBe(30_000);
  });

  it('runs everything in one process unless ROLE says api or worker; executors are looked at every 5 s and dead after 30 s', () => {
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ ROLE: 'worker', EXECUTOR_ID: 'host-7.worker_2' })).toMatchObject({
      role: 'worker',
      executorId: 'host-7.worker_2',
    });
    expect(loadConfig({}).durations).toMatchObject({ executorRecoveryIntervalMs: 5_000, executorDeadAfterMs: 30_000 });
    expect(() => loadConfig({ ROLE: 'boss' })).toThrow(/ROLE must be one of all, api, worker/);
    expect(() => loadConfig({ EXECUTOR_ID: 'has space' })).toThrow(/EXECUTOR_ID/);
    expect(() => loadConfig({ EXECUTOR_DEAD_AFTER: '0s' })).toThrow(/EXECUTOR_DEAD_AFTER/);
  });

  it('knows whether DATA_DIR was given, so the embedded PostgreSQL never moves data the operator placed', () => {
    expect(loadConfig({}).dataDirIsDefault).toBe(true);
    expect(loadConfig({ DATA_DIR: '/srv/photobook' }).dataDirIsDefault).toBe(false);
  });

  it('reads durations with units so tests can run timers in seconds', () => {
    expect(loadConfig({ SANDBOX_PRINTER_STEP: '500ms' }).durations.sandboxPrinterStepMs).toBe(500);
    expect(loadConfig({ SANDBOX_PRINTER_STEP: '30s' }).durations.sandboxPrinterStepMs).toBe(30_000);
    expect(loadConfig({ SANDBOX_PRINTER_STEP: '2d' }).durations.sandboxPrinterStepMs).toBe(172_800_000);
    expect(loadConfig({ DELETION_RETENTION: '3s' }).durations.deletionRetentionMs).toBe(3000);
    expect(loadConfig({}).durations.workflowRetentionMs).toBe(14 * 86_400_000);
    expect(loadConfig({ WORKFLOW_RETENTION: '2h' }).durations.workflowRetentionMs).toBe(7_200_000);
  });

  it('needs the HTTP printer URL and secret with PRINTER=http, naming both', () => {
    expect(() => loadConfig({ PRINTER: 'http' })).toThrow(/PRINTER_HTTP_URL.*PRINTER_HTTP_SECRET/);
    const secret = `whsec_${Buffer.from('http-printer-config-secret-32byt').toString('base64')}`;
    expect(
      loadConfig({ PRINTER: 'http', PRINTER_HTTP_URL: 'http://127.0.0.1:9/jobs/', PRINTER_HTTP_SECRET: secret })
        .printerHttp,
    ).toEqual({
      url: 'http://127.0.0.1:9/jobs',
      secret,
      timeoutMs: 30_000,
    });
    expect(
      loadConfig({
        PRINTER: 'http',
        PRINTER_HTTP_URL: 'http://127.0.0.1:9/jobs',
        PRINTER_HTTP_SECRET: secret,
        PRINTER_HTTP_TIMEOUT: '2s',
      }).printerHttp?.timeoutMs,
    ).toBe(2000);
    expect(loadConfig({}).printerHttp).toBeUndefined();
  });

  it('names a bad secret without repeating it', () => {
    const short = 'whsec_c2hvcnQtc2VjcmV0';
    let message = '';
    try {
      loadConfig({
        PRINTER: 'http',
        PRINTER_HTTP_URL: 'http://127.0.0.1:9/jobs',
        PRINTER_HTTP_SECRET: short,
        CREDENTIAL_PEPPER: 'pepper-too-short',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PRINTER_HTTP_SECRET');
    expect(message).toContain('CREDENTIAL_PEPPER');
    expect(message).not.toContain(short);
    expect(message).not.toContain('pepper-too-short');
  });

  it('serves metrics on 127.0.0.1:9464 by default, elsewhere or nowhere, and publicly only with a long token', () => {
    expect(loadConfig({}).metrics).toEqual({ listen: { host: '127.0.0.1', port: 9464 } });
    const anyPort = loadConfig({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '0' }).metrics;
    expect(anyPort).toEqual({ listen: { host: '0.0.0.0', port: 0 } });
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics).toEqual({});
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token }).metrics.token).toBe(token);
    expect(() => loadConfig({ METRICS_PORT: '65536' })).toThrow(/METRICS_PORT must be an integer from 0 to 65535/);
    expect(() => loadConfig({ METRICS_PORT: 'none' })).toThrow(/METRICS_PORT/);
    const short = 'short-metrics-token';
    expect(() => loadConfig({ METRICS_TOKEN: short })).toThrow(/METRICS_TOKEN must be at least 32 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: short })).not.toThrow(new RegExp(short));
  });

  it('counts blank values as unset', () => {
    expect(loadConfig({ PORT: ' ', PROJECT_TTL: '', LOG_LEVEL: ' debug ' })).toMatchObject({
      port: 4000,
      logLevel: 'debug',
      durations: { projectTtlMs: 30 * 86_400_000 },
    });
  });

  it('configures Temporal only when TEMPORAL_ADDRESS is set', () => {
    expect(loadConfig({ TEMPORAL_ADDRESS: 'localhost:7233' }).temporal).toEqual({
      address: 'localhost:7233',
      namespace: 'default',
      taskQueue: 'photobook',
    });
  });
});
