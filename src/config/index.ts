import path from 'node:path';
import { webhookSecretProblem } from '../domain/webhook-secret';

/**
 * Every environment variable the service reads, parsed once. Invalid values stop the process at
 * start with a message naming the variable, so a typo never becomes a silent default.
 */
export interface Config {
  host: string;
  port: number;
  /** Unset means: start the embedded PostgreSQL in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  frontendUrl: string;
  temporal?: { address: string; namespace: string; taskQueue: string };
  allowLoopbackUrls: boolean;
  printer: string;
  /** The HTTP printer's job endpoint and Standard Webhooks signing secret (PRINTER=http). */
  printerHttp?: { url: string; secret: string };
  /** Secrets that sign inbound printer status events, by psp name. */
  pspWebhookSecrets: Record<string, string>;
  /** Key of the HMAC that turns credential secrets into stored digests. */
  credentialPepper?: string;
  timezone: string;
  logLevel: string;
  durations: {
    projectTtlMs: number;
    deletionRetentionMs: number;
    webhookRetryMs: number;
    orderStatusTimeoutMs: number;
    sandboxPrinterStepMs: number;
    /** How long finished workflow runs of the embedded engine are kept before they are pruned. */
    workflowRetentionMs: number;
  };
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The variables `loadConfig` reads; docker-compose.yml may set only these. */
export const CONFIG_VARIABLES = [
  'HOST',
  'PORT',
  'DATABASE_URL',
  'DATA_DIR',
  'PUBLIC_URL',
  'FRONTEND_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_TASK_QUEUE',
  'ALLOW_LOOPBACK_URLS',
  'PRINTER',
  'CREDENTIAL_PEPPER',
  'TZ',
  'LOG_LEVEL',
  'PROJECT_TTL',
  'DELETION_RETENTION',
  'WEBHOOK_RETRY_SPACING',
  'ORDER_STATUS_TIMEOUT',
  'SANDBOX_PRINTER_STEP',
  'WORKFLOW_RETENTION',
  'PRINTER_HTTP_URL',
  'PRINTER_HTTP_SECRET',
  'PSP_WEBHOOK_SECRETS',
] as const;

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const read = (name: (typeof CONFIG_VARIABLES)[number]) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const host = read('HOST') ?? '127.0.0.1';
  const port = parsePort(read('PORT') ?? '4000');
  const publicUrl = parseUrl('PUBLIC_URL', read('PUBLIC_URL') ?? `http://${hostForUrl(host)}:${port}`);
  const temporalAddress = read('TEMPORAL_ADDRESS');

  return {
    host,
    port,
    databaseUrl: read('DATABASE_URL') && parseDatabaseUrl(read('DATABASE_URL')!),
    dataDir: path.resolve(read('DATA_DIR') ?? '.data'),
    publicUrl,
    frontendUrl: parseUrl('FRONTEND_URL', read('FRONTEND_URL') ?? `${publicUrl}/editor`),
    temporal: temporalAddress
      ? {
          address: temporalAddress,
          namespace: read('TEMPORAL_NAMESPACE') ?? 'default',
          taskQueue: read('TEMPORAL_TASK_QUEUE') ?? 'photobook',
        }
      : undefined,
    allowLoopbackUrls: parseBoolean('ALLOW_LOOPBACK_URLS', read('ALLOW_LOOPBACK_URLS') ?? 'false'),
    printer: parsePrinter(read('PRINTER') ?? 'local'),
    printerHttp: parsePrinterHttp(read('PRINTER') ?? 'local', read('PRINTER_HTTP_URL'), read('PRINTER_HTTP_SECRET')),
    pspWebhookSecrets: parseSecrets('PSP_WEBHOOK_SECRETS', read('PSP_WEBHOOK_SECRETS') ?? ''),
    credentialPepper: read('CREDENTIAL_PEPPER') && parsePepper(read('CREDENTIAL_PEPPER')!),
    timezone: parseTimezone(read('TZ') ?? 'UTC'),
    logLevel: parseLogLevel(read('LOG_LEVEL') ?? 'info'),
    durations: {
      projectTtlMs: parseDuration('PROJECT_TTL', read('PROJECT_TTL') ?? '30d'),
      deletionRetentionMs: parseDuration('DELETION_RETENTION', read('DELETION_RETENTION') ?? '2d'),
      webhookRetryMs: parseDuration('WEBHOOK_RETRY_SPACING', read('WEBHOOK_RETRY_SPACING') ?? '1m'),
      orderStatusTimeoutMs: parseDuration('ORDER_STATUS_TIMEOUT', read('ORDER_STATUS_TIMEOUT') ?? '1d'),
      sandboxPrinterStepMs: parseDuration('SANDBOX_PRINTER_STEP', read('SANDBOX_PRINTER_STEP') ?? '30s'),
      workflowRetentionMs: parseDuration('WORKFLOW_RETENTION', read('WORKFLOW_RETENTION') ?? '14d'),
    },
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parseUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function parseDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', `must be a postgres:// URL, got protocol "${url.protocol}"`);
  }
  return value;
}

function parseBoolean(name: string, value: string): boolean {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

const PRINTERS = ['local', 'http'];
function parsePrinter(value: string): string {
  if (!PRINTERS.includes(value)) {
    throw new ConfigError('PRINTER', `must be one of ${PRINTERS.join(', ')}, got "${value}"`);
  }
  return value;
}

function parsePrinterHttp(printer: string, url: string | undefined, secret: string | undefined) {
  if (printer !== 'http') return undefined;
  if (!url) throw new ConfigError('PRINTER_HTTP_URL', 'is required when PRINTER=http');
  if (!secret) throw new ConfigError('PRINTER_HTTP_SECRET', 'is required when PRINTER=http');
  const problem = webhookSecretProblem(secret);
  if (problem) throw new ConfigError('PRINTER_HTTP_SECRET', problem);
  return { url: parseUrl('PRINTER_HTTP_URL', url), secret };
}

/** `psp=secret,other=secret2`: each printer signs its status events with its own secret. */
function parseSecrets(name: string, value: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [psp, secret] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
    if (!/^[A-Za-z0-9_-]+$/.test(psp) || !secret || entry.indexOf('=') < 1) {
      throw new ConfigError(name, `must be a comma-separated list of psp=secret, got "${entry}"`);
    }
    const problem = webhookSecretProblem(secret);
    if (problem) throw new ConfigError(name, `secret of ${psp} ${problem}`);
    secrets[psp] = secret;
  }
  return secrets;
}

function parsePepper(value: string): string {
  if (value.length < 32) throw new ConfigError('CREDENTIAL_PEPPER', 'must be at least 32 characters');
  return value;
}

function parseTimezone(value: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: value });
  } catch {
    throw new ConfigError('TZ', `must be an IANA time zone such as Europe/Berlin, got "${value}"`);
  }
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
function parseLogLevel(value: string): string {
  if (!LOG_LEVELS.includes(value)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return value;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Durations are written like `500ms`, `30s`, `15m`, `2h`, `2d` (a bare number means milliseconds). */
export function parseDuration(name: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value);
  if (!match) throw new ConfigError(name, `must be a duration such as 500ms, 30s, 15m, 2h or 2d, got "${value}"`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
