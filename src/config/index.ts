import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import envSchema from 'env-schema';
import ipaddr from 'ipaddr.js';
import ms, { type StringValue } from 'ms';
import { parse as parseIcc } from 'icc';
import { Type, type Static, type TSchemaOptions } from 'typebox';
import { PDFX_FLAVOURS, type PrintOutput } from '../domain/print-output';
import { webhookSecretProblem } from '../domain/webhook-secret';
import { isPrintPartner, type PrintPartner } from '../domain/print-partners';

/**
 * Every environment variable the service reads, declared once: env-schema validates the
 * environment against this JSON Schema (defaults, types, formats), `Environment` is its type and
 * `loadConfig` turns it into the `Config` the code reads. Invalid values stop the process at start
 * with a message naming the variable, so a typo never becomes a silent default. Each description
 * completes "<VARIABLE> must be ..." in that message; `writeOnly` marks values never echoed in it.
 */

/** `500ms`, `30s`, `15m`, `2h`, `2d`; a bare number means milliseconds. `ms` reads them. */
const DURATION = '^\\d+(\\.\\d+)?(ms|s|m|h|d)?$';
const duration = (fallback: string) =>
  Type.String({ pattern: DURATION, default: fallback, description: 'a duration such as 500ms, 30s, 15m, 2h or 2d' });
/** A duration that is not zero: a time limit of nothing would fail every call it bounds. */
const limit = (fallback: string) =>
  Type.String({
    pattern: `^(?!0+(\\.0+)?(ms|s|m|h|d)?$)${DURATION.slice(1)}`,
    default: fallback,
    description: 'a duration above zero such as 500ms, 30s, 15m, 2h or 2d',
  });
const count = (fallback: number, what: string) =>
  Type.Integer({ minimum: 1, default: fallback, description: `a positive integer (${what})` });
const oneOf = <const Values extends string[]>(values: readonly [...Values], fallback: Values[number]) =>
  Type.Enum(values, { default: fallback, description: `one of ${values.join(', ')}` });

const EnvironmentSchema = Type.Object(
  {
    HOST: Type.String({ default: '127.0.0.1', description: 'a host name or address to listen on' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4000, description: 'an integer from 0 to 65535' }),
    /** The metrics listener (docs/operations.md, Metrics): loopback by default, never the public port. */
    METRICS_HOST: Type.String({ default: '127.0.0.1', description: 'a host name or address to listen on' }),
    METRICS_PORT: Type.String({
      pattern: '^(off|6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})$',
      default: '9464',
      description: 'an integer from 0 to 65535, or off',
    }),
    /** Also serves /metrics on the public port, to callers presenting it as a bearer token. */
    METRICS_TOKEN: Type.Optional(
      Type.String({ minLength: 32, writeOnly: true, description: 'at least 32 characters' }),
    ),
    /** Unset means: start the embedded PostgreSQL in DATA_DIR. */
    DATABASE_URL: Type.Optional(
      Type.String({ format: 'postgres-url', writeOnly: true, description: 'a postgres:// URL' }),
    ),
    DATA_DIR: Type.String({ default: '.data', description: 'a directory' }),
    /** The ORM's pool: most of a process's PostgreSQL connections (docs/operations.md, Connection budget). */
    DB_POOL_MAX: count(10, 'connections of the ORM pool'),
    /** The pool of DBOS's system database (the embedded workflow engine's journal and queues). */
    FLOW_DB_POOL_MAX: count(6, 'connections of the workflow engine pool'),
    PUBLIC_URL: Type.Optional(Type.String({ format: 'http-url', description: 'an absolute http(s) URL' })),
    FRONTEND_URL: Type.Optional(Type.String({ format: 'http-url', description: 'an absolute http(s) URL' })),
    /** What this process does: everything (the embedded default), only requests, or only flows. */
    ROLE: oneOf(['all', 'api', 'worker'], 'all'),
    /** The GraphQL explorer at /graphql/explorer; unset means: on outside production, off in it. */
    GRAPHQL_EXPLORER: Type.Optional(Type.Enum(['on', 'off'], { description: 'on or off' })),
    /** This process's DBOS executor id; unset: the host name and an id kept in DATA_DIR (src/engine/executor-identity.ts). */
    EXECUTOR_ID: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9._:-]{1,100}$',
        description: 'up to 100 letters, digits, dots, colons, hyphens or underscores',
      }),
    ),
    /** How often a process that runs flows looks for the runs of dead executors to take over. */
    EXECUTOR_RECOVERY_INTERVAL: limit('5s'),
    /** An executor whose lease lock has been free this long is dead and its runs are taken over (docs/operations.md). */
    EXECUTOR_DEAD_AFTER: limit('30s'),
    /**
     * How many times the embedded engine resumes a flow whose execution ended with its process (a
     * crash, heap exhaustion) without the flow getting anywhere; one more and the flow is parked
     * (dead-lettered) for an operator: `npm run cli -- flow list --dead` (docs/operations.md).
     */
    FLOW_MAX_RECOVERY_ATTEMPTS: count(3, 'recoveries of a flow that made no progress before it is parked'),
    /**
     * Test-only fault injection (test/faults/poison-flow.test.ts): the named activity exhausts the
     * process's heap whenever it runs. Refused with NODE_ENV=production.
     */
    TEST_EXHAUST_MEMORY_IN_ACTIVITY: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{1,60}$', description: 'the name of an activity (tests only)' }),
    ),
    TEMPORAL_ADDRESS: Type.Optional(Type.String({ description: 'a host:port' })),
    TEMPORAL_NAMESPACE: Type.String({ default: 'default', description: 'a Temporal namespace' }),
    TEMPORAL_TASK_QUEUE: Type.String({ default: 'photobook', description: 'a Temporal task queue' }),
    ALLOW_LOOPBACK_URLS: Type.String({ format: 'switch', default: 'false', description: 'true or false' }),
    /** Who decodes HEIC photos: the system's libheif when it loads (auto), only it, or libheif in WebAssembly (src/imaging/heic-decoder.ts). */
    HEIC_DECODER: oneOf(['auto', 'native', 'wasm'], 'auto'),
    PRINTER: oneOf(['local', 'http'], 'local'),
    PRINTER_HTTP_URL: Type.Optional(
      Type.String({ format: 'http-url', description: 'an absolute http(s) URL (needed when PRINTER=http)' }),
    ),
    PRINTER_HTTP_SECRET: Type.Optional(
      Type.String({
        format: 'webhook-secret',
        writeOnly: true,
        description: 'whsec_ followed by the base64 of 16 or more bytes (needed when PRINTER=http)',
      }),
    ),
    /** How long one job request to the HTTP printer may take before it counts as unavailable (retried). */
    PRINTER_HTTP_TIMEOUT: duration('30s'),
    /**
     * The printers' output profile: `srgb`, or the path of an ICC profile (RGB or CMYK) the printer
     * publishes; every page is converted to it and the PDFs carry it as their PDF/X output intent.
     */
    PRINT_OUTPUT_PROFILE: Type.String({
      minLength: 1,
      default: 'srgb',
      description: 'srgb or the path of an ICC profile file (RGB or CMYK)',
    }),
    /** The PDF/X flavour of cover.pdf and interior.pdf; PDF/X-1a needs a CMYK PRINT_OUTPUT_PROFILE. */
    PRINT_PDFX: oneOf([...PDFX_FLAVOURS], 'PDF/X-4'),
    /** The output intent's OutputConditionIdentifier (a registered condition such as CGATS21_CRPC1 or FOGRA39). */
    PRINT_OUTPUT_CONDITION: Type.Optional(
      Type.String({
        pattern: '^[\\x20-\\x7e]{1,64}$',
        description: 'a printable ASCII name of at most 64 characters, such as FOGRA39 or CGATS21_CRPC1',
      }),
    ),
    /**
     * How long a routed printer has to accept a job (retried meanwhile when it answers "not now")
     * before the next printer of the rule gets it; a shop may set its own (docs/api.md, Printers and routing).
     */
    PRINTER_ACCEPT_TIMEOUT: duration('10m'),
    /** `psp=secret,other=secret2`: each printer signs its status events with its own secret. */
    PSP_WEBHOOK_SECRETS: Type.String({
      format: 'webhook-secrets',
      default: '',
      writeOnly: true,
      description:
        'a comma-separated list of psp=secret, each secret whsec_ followed by the base64 of 16 or more bytes',
    }),
    /**
     * `partner=url,...`: the API root of a print partner for both environments instead of its
     * sandbox/live address, for tests and staging only. Set by the operator, never by a shop.
     */
    PRINT_PARTNER_BASE_URLS: Type.String({
      format: 'partner-urls',
      default: '',
      description: 'a comma-separated list of partner=url, partner one of prodigi, gelato, lulu, url absolute http(s)',
    }),
    /** How long one call to a print partner's API may take before it counts as unavailable (retried). */
    PRINT_PARTNER_TIMEOUT: duration('30s'),
    /** `production` turns on the safe defaults: a strong CREDENTIAL_PEPPER is required and no demo client is seeded. */
    NODE_ENV: Type.String({
      default: 'development',
      description: 'an environment name such as production or development',
    }),
    /** Key of the HMAC that turns credential secrets into stored digests. */
    CREDENTIAL_PEPPER: Type.Optional(
      Type.String({ minLength: 32, writeOnly: true, description: 'at least 32 characters' }),
    ),
    /** Key of the HMAC that signs /files URLs; unset means one derived from the credential pepper. */
    FILE_URL_SECRET: Type.Optional(
      Type.String({ minLength: 32, writeOnly: true, description: 'at least 32 characters' }),
    ),
    /** How long a signed /files URL handed to a client (print files, previews) stays valid. */
    FILE_URL_TTL: duration('15m'),
    /** How long a signed /files URL handed to an HTTP printer with a job stays valid. */
    PRINTER_FILE_URL_TTL: duration('7d'),
    /** How long the cover preview URLs of lists, status and order history stay valid (shops put them in e-mails). */
    PREVIEW_URL_TTL: duration('30d'),
    /** Unset: files under DATA_DIR/files. `s3://bucket/prefix`: an S3-API bucket every process shares. */
    FILE_STORE: Type.Optional(
      Type.String({
        format: 's3-location',
        description: 'an s3://bucket or s3://bucket/prefix URL (bucket: 3 to 63 of a-z, 0-9, dot and hyphen)',
      }),
    ),
    /** The S3 API's address for a store other than AWS S3 (MinIO, Ceph, R2). */
    S3_ENDPOINT: Type.Optional(Type.String({ format: 'http-url', description: 'an absolute http(s) URL' })),
    S3_REGION: Type.String({
      pattern: '^[a-z0-9-]+$',
      default: 'us-east-1',
      description: 'an S3 region such as eu-central-1',
    }),
    /** Unset (with S3_SECRET_ACCESS_KEY): the AWS SDK's own credential chain. */
    S3_ACCESS_KEY_ID: Type.Optional(
      Type.String({ minLength: 1, description: 'an access key id (set together with S3_SECRET_ACCESS_KEY)' }),
    ),
    S3_SECRET_ACCESS_KEY: Type.Optional(
      Type.String({
        minLength: 1,
        writeOnly: true,
        description: 'a secret access key (set together with S3_ACCESS_KEY_ID)',
      }),
    ),
    S3_FORCE_PATH_STYLE: Type.String({ format: 'switch', default: 'false', description: 'true or false' }),
    TZ: Type.String({ format: 'time-zone', default: 'UTC', description: 'an IANA time zone such as Europe/Berlin' }),
    LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    /**
     * OpenTelemetry's standard variables (docs/operations.md, Traces). Unset: no tracing SDK is loaded. The traces
     * endpoint is the whole URL; the general one is a base to which `/v1/traces` is added, as the specification says.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
      Type.String({ format: 'http-url', description: 'an absolute http(s) URL (an OTLP/HTTP collector)' }),
    ),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(
      Type.String({ format: 'http-url', description: 'an absolute http(s) URL (an OTLP/HTTP traces endpoint)' }),
    ),
    OTEL_SERVICE_NAME: Type.String({
      pattern: '^\\S{1,100}$',
      default: 'photobook-service',
      description: 'a service name of up to 100 characters without spaces',
    }),
    PROJECT_TTL: duration('30d'),
    DELETION_RETENTION: duration('2d'),
    WEBHOOK_RETRY_SPACING: duration('1m'),
    /**
     * Multiplies every wait of the order and project events' retry schedule (about 27.6 h at 1, the
     * production value): a test passes the day in seconds with e.g. 0.0005.
     */
    WEBHOOK_RETRY_SCALE: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1,
      default: 1,
      description: 'a number above 0 and at most 1 (1 in production)',
    }),
    /** How long an endpoint's event deliveries may fail without one succeeding before it is disabled. */
    WEBHOOK_DISABLE_AFTER: limit('5d'),
    /** How long a rotated webhook secret still signs, beside the new one. */
    WEBHOOK_SECRET_OVERLAP: duration('24h'),
    ORDER_STATUS_TIMEOUT: duration('1d'),
    SANDBOX_PRINTER_STEP: duration('30s'),
    /** How long one attempt at downloading a photo may take (each photo has at most 2 attempts). */
    PHOTO_DOWNLOAD_TIMEOUT: limit('10s'),
    /** How long after a build starts its photos may still be downloading; the rest fail. */
    BUILD_DOWNLOAD_DEADLINE: limit('60s'),
    /** How long finished workflow runs of the embedded engine are kept before they are pruned. */
    WORKFLOW_RETENTION: duration('14d'),
    /** How long a render or build rides out a full or unavailable file store (backoff up to 1 min) before its line or project fails. */
    RESOURCE_RETRY_WINDOW: duration('15m'),
    /** Free bytes the file store must keep for /readyz to answer ready (a filesystem store; 0 checks only that a write succeeds). */
    STORE_MIN_FREE_BYTES: Type.Integer({
      minimum: 0,
      default: 256 * 1024 * 1024,
      description: 'a number of bytes, 0 or more',
    }),
    /** How long an Idempotency-Key and its stored answer are kept. */
    IDEMPOTENCY_RETENTION: duration('24h'),
    /** How long a quote's prices hold for an order that names its quoteId. */
    QUOTE_TTL: duration('24h'),
    /** How long after delivery (or, for a parcel never delivered, after shipping) a line may be claimed (docs/api.md, Claims and remakes). */
    CLAIM_WINDOW: duration('30d'),
    /** How long a proof's print files are kept for an order that names its proofId (POST /v2/project/proof). */
    PROOF_TTL: duration('7d'),
    // Published limits (docs/operations.md, Limits): generous defaults, so that only abuse meets them.
    RATE_LIMIT_MAX: count(6000, 'requests per RATE_LIMIT_WINDOW and credential (or address, unauthenticated)'),
    RATE_LIMIT_WINDOW: duration('1m'),
    BODY_LIMIT: count(1024 * 1024, 'bytes of a request body'),
    CAMPAIGN_MAX_ROWS: count(20000, 'data rows of a campaign CSV'),
    /** Photo uploads (docs/api.md, Uploads): one file, photos of one project, and what a tenant uploads a day. */
    UPLOAD_MAX_BYTES: count(64 * 1024 * 1024, 'bytes of one uploaded photo'),
    UPLOAD_MAX_PHOTOS_PER_PROJECT: count(1000, 'photos of one project, uploads under way included'),
    UPLOAD_BYTES_PER_DAY: count(20 * 1024 * 1024 * 1024, 'bytes uploaded per client and environment in 24 hours'),
    /** How long an unfinished upload is kept before its bytes are removed. */
    UPLOAD_EXPIRY: duration('24h'),
    GRAPHQL_MAX_DEPTH: count(12, 'levels of field nesting of a GraphQL operation'),
    GRAPHQL_MAX_COST: count(50000, 'cost points of a GraphQL operation'),
    GRAPHQL_MAX_ALIASES: count(15, 'aliases in a GraphQL operation'),
    WS_MAX_CONNECTIONS_PER_CLIENT: count(2000, 'open graphql-ws connections per credential'),
    WS_MAX_SUBSCRIPTIONS_PER_CLIENT: count(10000, 'active subscriptions per credential'),
    /** Read before anyone is authenticated (eCommerce bodies carry their credentials; printer events; unknown routes), so small. */
    UNAUTHENTICATED_BODY_LIMIT: count(64 * 1024, 'bytes of a request body read before its sender is authenticated'),
    WS_MAX_PAYLOAD: count(64 * 1024, 'bytes of one graphql-ws message'),
    /**
     * The whole of a request, headers and body, must have arrived within this (Node's
     * server.requestTimeout; later: 408 and the connection closed). At the default a BODY_LIMIT body
     * (1 MiB) needs about 18 KB/s, a slow mobile link's pace; a body trickled to hold a socket is cut off.
     */
    REQUEST_TIMEOUT: limit('60s'),
    /** A request's headers must have arrived within this (Node's server.headersTimeout; at most REQUEST_TIMEOUT). */
    HEADERS_TIMEOUT: limit('20s'),
    WS_CONNECTION_INIT_TIMEOUT: duration('3s'),
    WS_CONNECTS_PER_ADDRESS: count(300, 'graphql-ws connection attempts per RATE_LIMIT_WINDOW and address'),
    AUTH_FAILURES_MAX: count(30, 'failed authentications per AUTH_FAILURES_WINDOW and address'),
    AUTH_FAILURES_WINDOW: duration('10m'),
    /** Where the limits above are counted; unset: postgres with a DATABASE_URL (other processes may share it), memory with the embedded database. */
    LIMITS_STORE: Type.Optional(Type.Enum(['postgres', 'memory'], { description: 'one of postgres, memory' })),
    /** Fastify's trustProxy: which peers may say, in X-Forwarded-For, whom they forward. */
    TRUST_PROXY: Type.String({
      format: 'trust-proxy',
      default: 'false',
      description:
        'false, true (every peer is a proxy), or a comma-separated list of proxy addresses and CIDR ranges (or loopback, linklocal, uniquelocal)',
    }),
  },
  {
    additionalProperties: false,
    dependencies: { S3_ACCESS_KEY_ID: ['S3_SECRET_ACCESS_KEY'], S3_SECRET_ACCESS_KEY: ['S3_ACCESS_KEY_ID'] },
    if: { required: ['PRINTER'], properties: { PRINTER: { const: 'http' } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    then: { required: ['PRINTER_HTTP_URL', 'PRINTER_HTTP_SECRET'] },
  },
);

type Environment = Static<typeof EnvironmentSchema>;
type Variable = keyof Environment;

/** The variables `loadConfig` reads; docker-compose.yml may set only these. */
export const CONFIG_VARIABLES = Object.keys(EnvironmentSchema.properties) as Variable[];

export type Config = ReturnType<typeof configFrom>;

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Blank values count as unset, as in `${VAR}` of a compose file whose VAR is not set. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const data: Record<string, string> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name]?.trim();
    if (value) data[name] = value;
  }
  let valid: Environment;
  try {
    valid = envSchema<Environment>({
      schema: EnvironmentSchema,
      data,
      env: false,
      ajv: validator,
    });
  } catch (error) {
    const errors = (error as { errors?: ErrorObject[] }).errors;
    if (!errors) throw error;
    throw new ConfigError(problemsOf(errors, data));
  }
  const production = valid.NODE_ENV === 'production';
  const weakPepper = production ? productionPepperProblem(valid.CREDENTIAL_PEPPER) : null;
  if (weakPepper) throw new ConfigError([weakPepper]);
  if (production && valid.TEST_EXHAUST_MEMORY_IN_ACTIVITY)
    throw new ConfigError([
      'TEST_EXHAUST_MEMORY_IN_ACTIVITY is for tests only and must not be set with NODE_ENV=production',
    ]);
  const printOutput = printOutputOf(valid);
  return configFrom(valid, { dataDirIsDefault: data.DATA_DIR === undefined, printOutput });
}

/**
 * The printers' output from PRINT_OUTPUT_PROFILE, PRINT_PDFX and PRINT_OUTPUT_CONDITION, the profile
 * read and checked at start (an ICC profile of RGB or CMYK; CMYK for PDF/X-1a), so a wrong file
 * stops the process instead of failing every order's render.
 */
function printOutputOf(env: Environment): PrintOutput {
  const condition = env.PRINT_OUTPUT_CONDITION ? { condition: env.PRINT_OUTPUT_CONDITION } : {};
  if (env.PRINT_OUTPUT_PROFILE === 'srgb') {
    if (env.PRINT_PDFX === 'PDF/X-1a')
      throw new ConfigError(['PRINT_PDFX=PDF/X-1a needs a CMYK PRINT_OUTPUT_PROFILE (the default is srgb)']);
    return { profile: 'srgb', pdfx: env.PRINT_PDFX, ...condition };
  }
  const file = path.resolve(env.PRINT_OUTPUT_PROFILE);
  let colourSpace: string | undefined;
  try {
    const bytes = readFileSync(file);
    if (bytes.length < 132 || bytes.toString('latin1', 36, 40) !== 'acsp') throw new Error('not an ICC profile');
    colourSpace = parseIcc(bytes).colorSpace?.trim();
  } catch (error) {
    throw new ConfigError([
      `PRINT_OUTPUT_PROFILE must be srgb or the path of an ICC profile file: ${file}: ${(error as Error).message}`,
    ]);
  }
  if (colourSpace !== 'RGB' && colourSpace !== 'CMYK')
    throw new ConfigError([
      `PRINT_OUTPUT_PROFILE must be an RGB or CMYK profile: ${file} is ${colourSpace ?? 'neither'}`,
    ]);
  if (env.PRINT_PDFX === 'PDF/X-1a' && colourSpace !== 'CMYK')
    throw new ConfigError([`PRINT_PDFX=PDF/X-1a needs a CMYK PRINT_OUTPUT_PROFILE: ${file} is RGB`]);
  return { profile: file, pdfx: env.PRINT_PDFX, ...condition };
}

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT with the signal's path. */
function tracesUrlOf(env: Environment): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${withoutTrailingSlash(base)}/v1/traces` : undefined;
}

function configFrom(env: Environment, given: { dataDirIsDefault: boolean; printOutput: PrintOutput }) {
  const publicUrl = withoutTrailingSlash(env.PUBLIC_URL ?? `http://${hostForUrl(env.HOST)}:${env.PORT}`);
  const tracesUrl = tracesUrlOf(env);
  return {
    /** NODE_ENV=production: no generated pepper, no demo client. */
    production: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    metrics: metricsOf(env),
    /** Unset means: start the embedded PostgreSQL in `dataDir`. */
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    /** Pool sizes; a process's connection ceiling follows from them (docs/operations.md, Connection budget). */
    dbPoolMax: env.DB_POOL_MAX,
    flowDbPoolMax: env.FLOW_DB_POOL_MAX,
    dataDir: path.resolve(env.DATA_DIR),
    /** DATA_DIR was not set: the embedded PostgreSQL may keep its cluster elsewhere when it cannot reach `dataDir` (src/db/embedded-postgres.ts). */
    dataDirIsDefault: given.dataDirIsDefault,
    publicUrl,
    frontendUrl: withoutTrailingSlash(env.FRONTEND_URL ?? `${publicUrl}/editor`),
    role: env.ROLE,
    heicDecoder: env.HEIC_DECODER,
    /** Serve the GraphQL explorer (src/web/explorer-routes.ts). */
    graphqlExplorer: env.GRAPHQL_EXPLORER ? env.GRAPHQL_EXPLORER === 'on' : env.NODE_ENV !== 'production',
    /** Unset means: derived from the host and DATA_DIR. */
    ...(env.EXECUTOR_ID ? { executorId: env.EXECUTOR_ID } : {}),
    /** Recoveries without progress after which the embedded engine parks a flow (src/engine/parked-flows.ts). */
    flowMaxRecoveryAttempts: env.FLOW_MAX_RECOVERY_ATTEMPTS,
    /** Tests only: the activity that exhausts the heap whenever it runs (src/activities/injected-faults.ts). */
    ...(env.TEST_EXHAUST_MEMORY_IN_ACTIVITY ? { exhaustMemoryInActivity: env.TEST_EXHAUST_MEMORY_IN_ACTIVITY } : {}),
    ...(env.TEMPORAL_ADDRESS
      ? {
          temporal: {
            address: env.TEMPORAL_ADDRESS,
            namespace: env.TEMPORAL_NAMESPACE,
            taskQueue: env.TEMPORAL_TASK_QUEUE,
          },
        }
      : {}),
    allowLoopbackUrls: /^(true|1|yes)$/i.test(env.ALLOW_LOOPBACK_URLS),
    printer: env.PRINTER,
    /** The HTTP printer's job endpoint and Standard Webhooks signing secret (PRINTER=http). */
    ...(env.PRINTER === 'http'
      ? {
          printerHttp: {
            url: withoutTrailingSlash(env.PRINTER_HTTP_URL!),
            secret: env.PRINTER_HTTP_SECRET!,
            timeoutMs: milliseconds(env.PRINTER_HTTP_TIMEOUT),
          },
        }
      : {}),
    /** The profile and PDF/X flavour every printer takes its files in (src/domain/print-output.ts). */
    printOutput: given.printOutput,
    /** Operator overrides of print partners' API roots (tests, staging), and the time one call may take. */
    printPartners: {
      baseUrls: partnerUrlsOf(env.PRINT_PARTNER_BASE_URLS)!,
      timeoutMs: milliseconds(env.PRINT_PARTNER_TIMEOUT),
    },
    /** Secrets that sign inbound printer status events, by psp name. */
    pspWebhookSecrets: secretsByPsp(env.PSP_WEBHOOK_SECRETS)!,
    /** Key of the HMAC that turns credential secrets into stored digests. */
    ...(env.CREDENTIAL_PEPPER ? { credentialPepper: env.CREDENTIAL_PEPPER } : {}),
    /** Key of the HMAC that signs /files URLs (else derived from the credential pepper). */
    ...(env.FILE_URL_SECRET ? { fileUrlSecret: env.FILE_URL_SECRET } : {}),
    /** Where files live: DATA_DIR/files, or an S3 bucket (FILE_STORE). */
    fileStore: fileStoreOf(env),
    timezone: env.TZ,
    logLevel: env.LOG_LEVEL,
    /** Where spans go over OTLP/HTTP (JSON); unset: tracing is off and costs nothing (src/telemetry/). */
    ...(tracesUrl ? { tracing: { tracesUrl, serviceName: env.OTEL_SERVICE_NAME } } : {}),
    /** WEBHOOK_RETRY_SCALE: 1 but in tests. */
    webhookRetryScale: env.WEBHOOK_RETRY_SCALE,
    durations: {
      projectTtlMs: milliseconds(env.PROJECT_TTL),
      deletionRetentionMs: milliseconds(env.DELETION_RETENTION),
      webhookRetryMs: milliseconds(env.WEBHOOK_RETRY_SPACING),
      webhookDisableAfterMs: milliseconds(env.WEBHOOK_DISABLE_AFTER),
      webhookSecretOverlapMs: milliseconds(env.WEBHOOK_SECRET_OVERLAP),
      orderStatusTimeoutMs: milliseconds(env.ORDER_STATUS_TIMEOUT),
      sandboxPrinterStepMs: milliseconds(env.SANDBOX_PRINTER_STEP),
      printerAcceptTimeoutMs: milliseconds(env.PRINTER_ACCEPT_TIMEOUT),
      workflowRetentionMs: milliseconds(env.WORKFLOW_RETENTION),
      resourceRetryWindowMs: milliseconds(env.RESOURCE_RETRY_WINDOW),
      fileUrlTtlMs: milliseconds(env.FILE_URL_TTL),
      printerFileUrlTtlMs: milliseconds(env.PRINTER_FILE_URL_TTL),
      previewUrlTtlMs: milliseconds(env.PREVIEW_URL_TTL),
      idempotencyRetentionMs: milliseconds(env.IDEMPOTENCY_RETENTION),
      photoDownloadTimeoutMs: milliseconds(env.PHOTO_DOWNLOAD_TIMEOUT),
      buildDownloadDeadlineMs: milliseconds(env.BUILD_DOWNLOAD_DEADLINE),
      quoteTtlMs: milliseconds(env.QUOTE_TTL),
      claimWindowMs: milliseconds(env.CLAIM_WINDOW),
      uploadExpiryMs: milliseconds(env.UPLOAD_EXPIRY),
      proofTtlMs: milliseconds(env.PROOF_TTL),
      executorRecoveryIntervalMs: milliseconds(env.EXECUTOR_RECOVERY_INTERVAL),
      executorDeadAfterMs: milliseconds(env.EXECUTOR_DEAD_AFTER),
    },
    limits: {
      rateLimitMax: env.RATE_LIMIT_MAX,
      rateLimitWindowMs: milliseconds(env.RATE_LIMIT_WINDOW),
      bodyLimitBytes: env.BODY_LIMIT,
      campaignMaxRows: env.CAMPAIGN_MAX_ROWS,
      uploadMaxBytes: env.UPLOAD_MAX_BYTES,
      uploadMaxPhotosPerProject: env.UPLOAD_MAX_PHOTOS_PER_PROJECT,
      uploadBytesPerDay: env.UPLOAD_BYTES_PER_DAY,
      graphqlMaxDepth: env.GRAPHQL_MAX_DEPTH,
      graphqlMaxCost: env.GRAPHQL_MAX_COST,
      graphqlMaxAliases: env.GRAPHQL_MAX_ALIASES,
      wsMaxConnectionsPerClient: env.WS_MAX_CONNECTIONS_PER_CLIENT,
      wsMaxSubscriptionsPerClient: env.WS_MAX_SUBSCRIPTIONS_PER_CLIENT,
      unauthenticatedBodyLimitBytes: env.UNAUTHENTICATED_BODY_LIMIT,
      wsMaxPayloadBytes: env.WS_MAX_PAYLOAD,
      wsConnectionInitTimeoutMs: milliseconds(env.WS_CONNECTION_INIT_TIMEOUT),
      requestTimeoutMs: milliseconds(env.REQUEST_TIMEOUT),
      headersTimeoutMs: Math.min(milliseconds(env.HEADERS_TIMEOUT), milliseconds(env.REQUEST_TIMEOUT)),
      wsConnectsPerAddress: env.WS_CONNECTS_PER_ADDRESS,
      authFailuresMax: env.AUTH_FAILURES_MAX,
      authFailuresWindowMs: milliseconds(env.AUTH_FAILURES_WINDOW),
      store: env.LIMITS_STORE ?? (env.DATABASE_URL ? 'postgres' : 'memory'),
      storeMinFreeBytes: env.STORE_MIN_FREE_BYTES,
    },
    /** Fastify's `trustProxy`, from TRUST_PROXY. */
    trustProxy: trustProxyOf(env.TRUST_PROXY)!,
  };
}

/** Where /metrics is served: its own listener (unless METRICS_PORT=off), and the public port only with a token. */
function metricsOf(env: Environment): { listen?: { host: string; port: number }; token?: string } {
  return {
    ...(env.METRICS_PORT === 'off' ? {} : { listen: { host: env.METRICS_HOST, port: Number(env.METRICS_PORT) } }),
    ...(env.METRICS_TOKEN ? { token: env.METRICS_TOKEN } : {}),
  };
}

/** The formats the schema names, for ajv. */
const FORMATS: Record<string, (value: string) => boolean> = {
  'http-url': (value) => ['http:', 'https:'].includes(urlOf(value)?.protocol ?? ''),
  'postgres-url': (value) => ['postgres:', 'postgresql:'].includes(urlOf(value)?.protocol ?? ''),
  switch: (value) => /^(true|1|yes|false|0|no)$/i.test(value),
  'time-zone': (value) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  },
  'webhook-secret': (value) => webhookSecretProblem(value) === null,
  'webhook-secrets': (value) => secretsByPsp(value) !== undefined,
  'partner-urls': (value) => partnerUrlsOf(value) !== undefined,
  'trust-proxy': (value) => trustProxyOf(value) !== undefined,
  's3-location': (value) => s3LocationOf(value) !== undefined,
};

/** `s3://bucket/prefix` as bucket and prefix, or undefined when malformed. */
function s3LocationOf(value: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*)?)?\/?$/.exec(
    value,
  );
  if (!match || match[2]?.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return { bucket: match[1], prefix: match[2] ?? '' };
}

function fileStoreOf(env: Environment) {
  if (!env.FILE_STORE) return { kind: 'filesystem' as const };
  return {
    kind: 's3' as const,
    ...s3LocationOf(env.FILE_STORE)!,
    ...(env.S3_ENDPOINT ? { endpoint: withoutTrailingSlash(env.S3_ENDPOINT) } : {}),
    region: env.S3_REGION,
    forcePathStyle: /^(true|1|yes)$/i.test(env.S3_FORCE_PATH_STYLE),
    ...(env.S3_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } }
      : {}),
  };
}

/**
 * A production pepper keys every credential digest, file-URL signature and webhook-secret seal, so
 * it must be unguessable: the hex or base64 of at least 32 random bytes (`openssl rand -base64 32`),
 * not a value published anywhere (a placeholder), not a short alphabet repeated, no sequence of 8
 * characters twice and no run of 8 counting characters (isPatterned).
 */
export const MIN_PEPPER_BYTES = 32;
/** Values that have stood in documentation or compose files: public, so never a production key. */
const PUBLIC_PEPPERS = new Set(['change-me-to-a-random-string-of-32-chars-or-more']);

function productionPepperProblem(pepper: string | undefined): string | null {
  const wanted = `with NODE_ENV=production it must be the hex or base64 of at least ${MIN_PEPPER_BYTES} random bytes (openssl rand -base64 ${MIN_PEPPER_BYTES})`;
  if (!pepper) return `CREDENTIAL_PEPPER is not set; ${wanted}`;
  const bytes = /^[0-9a-f]+$/i.test(pepper)
    ? pepper.length / 2
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(pepper)
      ? Math.floor((pepper.replace(/=+$/, '').length * 3) / 4)
      : 0;
  if (bytes < MIN_PEPPER_BYTES) return `CREDENTIAL_PEPPER is too weak; ${wanted}`;
  if (
    PUBLIC_PEPPERS.has(pepper) ||
    /change-?me|example|secret|password/i.test(pepper) ||
    new Set(pepper).size < 10 ||
    isPatterned(pepper)
  ) {
    return `CREDENTIAL_PEPPER is a placeholder or a repeated or counting pattern, not a random key; ${wanted}`;
  }
  return null;
}

/** A pattern's length that random output of 32 bytes all but never holds (about 1 in a million for hex). */
const PATTERN_LENGTH = 8;

/**
 * Whether a pepper is made by hand rather than drawn: some PATTERN_LENGTH characters occur twice
 * (`0123456789abcdef` four times, a key pasted twice) or count up or down one by one
 * (`01234567`, `abcdefgh`). Either costs a guesser almost nothing, however long the value.
 */
function isPatterned(pepper: string): boolean {
  const seen = new Set<string>();
  let counting = 1;
  for (let at = 0; at < pepper.length; at++) {
    const step = at > 0 ? pepper.charCodeAt(at) - pepper.charCodeAt(at - 1) : 0;
    counting =
      Math.abs(step) === 1 && (counting === 1 || step === pepper.charCodeAt(at - 1) - pepper.charCodeAt(at - 2))
        ? counting + 1
        : 1;
    if (counting >= PATTERN_LENGTH) return true;
    if (at + PATTERN_LENGTH > pepper.length) continue;
    const piece = pepper.slice(at, at + PATTERN_LENGTH);
    if (seen.has(piece)) return true;
    seen.add(piece);
  }
  return false;
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` option takes it, or undefined when malformed. No hop
 * count: Fastify 5 trusts no peer for a number (it cannot check the nearest one).
 */
function trustProxyOf(value: string): boolean | string[] | undefined {
  if (/^(false|no)$/i.test(value)) return false;
  if (/^(true|yes)$/i.test(value)) return true;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = entries.every(
    (entry) => ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || isAddressOrRange(entry),
  );
  return entries.length > 0 && valid ? entries : undefined;
}

/** `10.0.0.1`, `10.0.0.0/8`, `2001:db8::/32`; not ipaddr.js's legacy forms (`2` is 0.0.0.2 to it). */
function isAddressOrRange(entry: string): boolean {
  const [address, bits] = entry.split('/');
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return false;
  if (bits === undefined) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** env-schema's own ajv options, with our formats; one instance, so the schema compiles once. */
const validator = new Ajv({
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  allowUnionTypes: true,
  formats: FORMATS,
});

/** One message per variable, naming it, in the schema's words. */
function problemsOf(errors: ErrorObject[], data: Record<string, string>): string[] {
  const problems = new Map<string, string>();
  for (const error of errors) {
    const variable = (error.instancePath.slice(1) || (error.params as { missingProperty?: string }).missingProperty) as
      | Variable
      | undefined;
    if (!variable || problems.has(variable) || !(variable in EnvironmentSchema.properties)) continue;
    const schema: TSchemaOptions = { ...EnvironmentSchema.properties[variable] };
    if (error.keyword === 'required' || error.keyword === 'dependencies') {
      problems.set(variable, `${variable} is not set; it must be ${schema.description}`);
    } else {
      problems.set(
        variable,
        `${variable} must be ${schema.description}${schema.writeOnly ? '' : `, got "${data[variable]}"`}`,
      );
    }
  }
  return problems.size > 0 ? [...problems.values()] : errors.map((error) => error.message ?? error.keyword);
}

/** `psp=secret,other=secret2` by psp, or undefined when an entry is malformed. */
function secretsByPsp(value: string): Record<string, string> | undefined {
  const secrets: Record<string, string> = {};
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf('=');
    const [psp, secret] = [entry.slice(0, equals), entry.slice(equals + 1)];
    if (equals < 1 || !/^[A-Za-z0-9_-]+$/.test(psp) || webhookSecretProblem(secret) !== null) return undefined;
    secrets[psp] = secret;
  }
  return secrets;
}

function partnerUrlsOf(value: string): Partial<Record<PrintPartner, string>> | undefined {
  const urls: Partial<Record<PrintPartner, string>> = {};
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf('=');
    const [partner, url] = [entry.slice(0, equals), entry.slice(equals + 1)];
    if (!isPrintPartner(partner) || !['http:', 'https:'].includes(urlOf(url)?.protocol ?? '')) return undefined;
    urls[partner] = withoutTrailingSlash(url);
  }
  return urls;
}

function milliseconds(duration: string): number {
  return Math.round(ms(duration as StringValue));
}

function urlOf(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
