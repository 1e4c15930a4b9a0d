import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig, type Config } from '../../src/config';

type Environment = Record<string, string | number | boolean | null> | string[];

interface ComposeService {
  image?: string;
  command?: string | string[];
  read_only?: boolean;
  tmpfs?: string[];
  volumes?: string[];
  profiles?: string[];
  deploy?: { replicas?: number };
  build?: unknown;
  environment?: Environment;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
}

interface ComposeFile {
  services: Record<string, ComposeService>;
}

const composeText = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
// `merge: true` so that `<<: *anchor` merge keys (which Compose supports) resolve as Compose does.
const compose = parse(composeText, { merge: true }) as ComposeFile;
const services = compose.services ?? {};

const APP_SERVICES = ['api', 'worker', 'temporal-worker'] as const;
/** The role each app service runs, and whether it needs Temporal. */
const ROLES = { api: 'api', worker: 'worker', 'temporal-worker': 'worker' } as const;

/** A service's environment as a map, whichever of the two Compose syntaxes it uses. */
function environmentOf(service: ComposeService): Record<string, string | undefined> {
  const env = service.environment;
  if (env === undefined || env === null) return {};
  if (Array.isArray(env)) {
    const out: Record<string, string | undefined> = {};
    for (const entry of env) {
      const text = String(entry);
      const eq = text.indexOf('=');
      if (eq === -1)
        out[text.trim()] = undefined; // `- NAME`: passed through from the host
      else out[text.slice(0, eq).trim()] = text.slice(eq + 1);
    }
    return out;
  }
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, value === null ? undefined : String(value)]),
  );
}

/** Compose refuses to start: a `${VAR:?message}` whose VAR the host does not set. */
class RequiredVariableError extends Error {}

/**
 * Compose interpolation, resolved against `host` (the operator's shell) only: a set variable is
 * its value; otherwise `${VAR:-default}` and `${VAR-default}` become their default, `${VAR:?msg}`
 * and `${VAR?msg}` refuse to start (RequiredVariableError), `${VAR}` and `$VAR` become empty; `$$` is a `$`.
 */
function interpolate(value: string, host: Record<string, string> = {}): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^}])*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (
      match,
      braced: string | undefined,
      operator: string | undefined,
      argument: string | undefined,
      bare: string | undefined,
    ) => {
      if (match === '$$') return '$';
      const name = braced ?? bare!;
      if (host[name]) return host[name];
      if (operator === ':-' || operator === '-') return argument ?? '';
      if (operator === ':?' || operator === '?') throw new RequiredVariableError(`${name}: ${argument}`);
      return '';
    },
  );
}

function resolvedEnvironmentOf(
  service: ComposeService,
  host: Record<string, string> = {},
): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(environmentOf(service)).map(([key, value]) => [
      key,
      value === undefined ? undefined : interpolate(value, host),
    ]),
  );
}

/** Services others wait for to have finished (`service_completed_successfully`): setups that run once per `up`. */
const ONE_SHOTS = [
  ...new Set(
    Object.values(services).flatMap((service) =>
      Object.entries(Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}))
        .filter(([, dependency]) => dependency.condition === 'service_completed_successfully')
        .map(([name]) => name),
    ),
  ),
];

/** What the README tells an operator to run: `CREDENTIAL_PEPPER=$(openssl rand -base64 32) docker compose up`. */
const OPERATOR_SHELL = { CREDENTIAL_PEPPER: randomBytes(32).toString('base64') };

describe('docker-compose.yml', () => {
  it('defines postgres, the balancer, api and worker, and Temporal with its UI and workers as the temporal profile', () => {
    for (const name of ['postgres', 'balancer', 'temporal', 'temporal-ui', 'api', 'worker', 'temporal-worker']) {
      expect(services, `service "${name}"`).toHaveProperty([name]);
    }
    const profiled = Object.entries(services)
      .filter(([, service]) => service.profiles?.length)
      .map(([name]) => name);
    const temporalProfile = ['temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui', 'temporal-worker'];
    expect(profiled.sort()).toEqual(temporalProfile);
    for (const name of profiled) expect(services[name]!.profiles).toEqual(['temporal']);
  });

  it.each(APP_SERVICES)('runs %s in its role, as several replicas', (name) => {
    const config = loadConfig(resolvedEnvironmentOf(services[name] ?? {}, OPERATOR_SHELL));
    expect(config.role).toBe(ROLES[name]);
    expect(services[name]!.deploy?.replicas).toBeGreaterThanOrEqual(2);
  });

  it('balances over the api replicas by their readiness, found through Docker DNS', () => {
    const balancer = services.balancer as ComposeService & { configs?: { source: string; target: string }[] };
    expect(balancer.configs).toEqual([{ source: 'haproxy', target: '/usr/local/etc/haproxy/haproxy.cfg' }]);
    const config = (parse(composeText, { merge: true }) as { configs: Record<string, { content: string }> }).configs
      .haproxy!.content;
    expect(config).toContain('bind :4000');
    expect(config).toContain('option httpchk GET /readyz');
    expect(config).toMatch(/server-template api \d+ api:4000 check resolvers docker/);
  });

  it('gives every service except temporal-ui and the one-shot setups a healthcheck', () => {
    expect(ONE_SHOTS.sort()).toEqual(['seaweedfs-bucket', 'temporal-namespace', 'temporal-schema']);
    for (const [name, service] of Object.entries(services)) {
      if (name === 'temporal-ui' || ONE_SHOTS.includes(name)) continue;
      const healthcheck = service.healthcheck;
      expect(healthcheck, `healthcheck of "${name}"`).toBeTruthy();
      expect(healthcheck!.disable, `healthcheck of "${name}" disabled`).not.toBe(true);
      const test = healthcheck!.test;
      expect(test, `healthcheck test of "${name}"`).toBeTruthy();
      if (Array.isArray(test)) expect(test[0], `healthcheck test of "${name}"`).not.toBe('NONE');
    }
  });

  it.each(APP_SERVICES)('makes %s wait for a healthy postgres, and temporal when it is there', (name) => {
    const dependsOn = services[name]?.depends_on;
    // The short (list) syntax only waits for the container to start, so the long syntax is required.
    expect(Array.isArray(dependsOn), `depends_on of "${name}" must use the long syntax`).toBe(false);
    const conditions = dependsOn as Record<string, { condition?: string; required?: boolean }>;
    expect(conditions?.postgres?.condition).toBe('service_healthy');
    if (name === 'worker') expect(conditions?.temporal).toBeUndefined();
    else {
      expect(conditions?.temporal?.condition).toBe('service_healthy');
      // Temporal is a profile: without it the API starts all the same.
      expect(conditions?.temporal?.required).toBe(name === 'api' ? false : undefined);
    }
  });

  it.each(APP_SERVICES)('sets on %s only variables the config reads', (name) => {
    const known = new Set<string>(CONFIG_VARIABLES);
    const variables = Object.keys(environmentOf(services[name] ?? {}));
    expect(variables.length, `environment of "${name}"`).toBeGreaterThan(0);
    expect(variables.filter((variable) => !known.has(variable))).toEqual([]);
  });

  it.each(APP_SERVICES)('gives %s an environment that loadConfig accepts, in production', (name) => {
    const env = resolvedEnvironmentOf(services[name] ?? {}, OPERATOR_SHELL);
    const config = loadConfig(env);
    expect(config.databaseUrl).toBeTruthy();
    expect(config.temporal?.address).toBe(name === 'temporal-worker' ? 'temporal:7233' : undefined);
    expect(config.production).toBe(true);
    // With the temporal profile the operator points the API at Temporal.
    if (name === 'api')
      expect(
        loadConfig(resolvedEnvironmentOf(services.api!, { ...OPERATOR_SHELL, TEMPORAL_ADDRESS: 'temporal:7233' }))
          .temporal?.address,
      ).toBe('temporal:7233');
  });

  it.each(APP_SERVICES)(
    'refuses to start %s without a CREDENTIAL_PEPPER from the operator (no public fallback)',
    (name) => {
      expect(() => resolvedEnvironmentOf(services[name] ?? {})).toThrow(RequiredVariableError);
      expect(() => resolvedEnvironmentOf(services[name] ?? {})).toThrow(/CREDENTIAL_PEPPER/);
      // Were the variable blank, the service itself refuses, naming it.
      expect(() =>
        loadConfig({ ...resolvedEnvironmentOf(services[name] ?? {}, { ...OPERATOR_SHELL }), CREDENTIAL_PEPPER: '' }),
      ).toThrow(/CREDENTIAL_PEPPER/);
    },
  );

  it("publishes only the balancer: the replicas, Temporal's gRPC port and UI, and PostgreSQL stay on the compose network", () => {
    const published = Object.entries(services)
      .filter(([, service]) => (service as { ports?: unknown[] }).ports?.length)
      .map(([name]) => name);
    expect(published).toEqual(['balancer']);
    expect((services.balancer as { ports?: unknown[] }).ports).toEqual(['4000:4000']);
  });
});

/**
 * The connection budget of docs/operations.md: the most PostgreSQL connections a process of each app
 * service holds, from its pool sizes. An API process: the ORM pool, the DBOS client's pool (none under
 * Temporal), the status-event and credential-change listeners and the migration lock's session at start.
 * A worker: the ORM pool, DBOS's pool, DBOS's own client (2), the executor lease, the lock of a dead
 * executor while taking it over and the migration lock's session. A Temporal worker: the ORM pool and the
 * migration lock's session.
 */
const CONNECTIONS_PER_PROCESS = {
  api: (config: Config) => config.dbPoolMax + (config.temporal ? 0 : config.flowDbPoolMax) + 3,
  worker: (config: Config) => config.dbPoolMax + config.flowDbPoolMax + 5,
  'temporal-worker': (config: Config) => config.dbPoolMax + 1,
} as const;
/** Kept out of the services' budget for operators: a CLI command (17 at the default pools), psql or pg_dump. */
const OPERATOR_RESERVE = 20;

describe('the connection budget', () => {
  const maxConnections = () => {
    const command = services.postgres!.command as string[];
    const setting = command.find((argument) => argument.startsWith('max_connections='));
    return Number(setting?.split('=')[1]);
  };

  it("sets max_connections, and every service of every profile fits in it with the operators' reserve", () => {
    const limit = maxConnections();
    expect(limit).toBeGreaterThan(100);
    let budget = 0;
    for (const name of APP_SERVICES) {
      // Under the temporal profile the API talks to Temporal, not DBOS: fewer connections; the budget takes DBOS's.
      const config = loadConfig(resolvedEnvironmentOf(services[name]!, OPERATOR_SHELL));
      budget += services[name]!.deploy!.replicas! * CONNECTIONS_PER_PROCESS[name](config);
    }
    const temporal = environmentOf(services.temporal!);
    const temporalConnections = Number(temporal.SQL_MAX_CONNS) + Number(temporal.SQL_VIS_MAX_CONNS);
    expect(temporalConnections, "Temporal's SQL_MAX_CONNS + SQL_VIS_MAX_CONNS").toBeGreaterThan(0);
    budget += temporalConnections;
    expect(budget).toBe(117);
    expect(budget + OPERATOR_RESERVE).toBeLessThanOrEqual(limit);
  });

  it('is the one docs/operations.md writes down', () => {
    const docs = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    expect(docs).toContain(`max_connections=${maxConnections()}`);
    expect(docs).toMatch(/DB_POOL_MAX \+ FLOW_DB_POOL_MAX \+ 3/);
    expect(docs).toMatch(/DB_POOL_MAX \+ FLOW_DB_POOL_MAX \+ 5/);
  });
});

describe('the images', () => {
  it('are all pinned to a version tag, and none is one that no longer exists or is deprecated', () => {
    const images = Object.entries(services)
      .filter(([, service]) => service.image)
      .map(([name, service]) => [name, service.image!] as const);
    expect(images.length).toBeGreaterThan(5);
    for (const [name, image] of images) {
      const tag = /:([^:/]+)$/.exec(image)?.[1];
      expect(tag, `tag of ${name}'s ${image}`).toMatch(/\d/);
      expect(tag, `tag of ${name}'s ${image}`).not.toMatch(/latest/);
      expect(image, name).not.toMatch(/^minio\/|^temporalio\/auto-setup:/);
    }
  });

  it.each(APP_SERVICES)("runs %s from the image's own command, read-only, with DATA_DIR and /tmp writable", (name) => {
    const service = services[name]!;
    expect(service.command, "the image's CMD: node as process 1").toBeUndefined();
    expect((service.build as { target?: string }).target).toBe(name === 'temporal-worker' ? 'temporal-worker' : 'app');
    expect(service.read_only).toBe(true);
    expect(service.tmpfs).toEqual(['/tmp']);
    expect(service.volumes).toEqual([`app-data:${resolvedEnvironmentOf(service, OPERATOR_SHELL).DATA_DIR}`]);
  });

  it('makes the bucket FILE_STORE names before the app services start', () => {
    const bucket = /^s3:\/\/([^/]+)/.exec(resolvedEnvironmentOf(services.api!, OPERATOR_SHELL).FILE_STORE!)![1]!;
    const setup = services['seaweedfs-bucket']!;
    expect((setup.command as string[]).join('\n')).toContain(`s3.bucket.create -name ${bucket}`);
    for (const name of APP_SERVICES) {
      const dependsOn = services[name]!.depends_on as Record<string, { condition?: string }>;
      expect(dependsOn['seaweedfs-bucket']?.condition).toBe('service_completed_successfully');
    }
  });
});

describe('compose interpolation helper', () => {
  it('resolves defaults and escapes without reading the host environment', () => {
    expect(interpolate('${A:-x}/${B-y}/${C}/$D/$$E')).toBe('x/y///$E');
    expect(() => interpolate('${F:?required}')).toThrow(RequiredVariableError);
    expect(interpolate('${F:?required}/${A:-x}/$D', { F: 'f', A: 'a', D: 'd' })).toBe('f/a/d');
  });
});
