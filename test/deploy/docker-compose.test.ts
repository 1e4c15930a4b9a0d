import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config';

type Environment = Record<string, string | number | boolean | null> | string[];

interface ComposeService {
  image?: string;
  profiles?: string[];
  deploy?: { replicas?: number };
  build?: unknown;
  command?: string | string[];
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
      if (eq === -1) out[text.trim()] = undefined; // `- NAME`: passed through from the host
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
    (match, braced: string | undefined, operator: string | undefined, argument: string | undefined, bare: string | undefined) => {
      if (match === '$$') return '$';
      const name = braced ?? bare!;
      if (host[name]) return host[name];
      if (operator === ':-' || operator === '-') return argument ?? '';
      if (operator === ':?' || operator === '?') throw new RequiredVariableError(`${name}: ${argument}`);
      return '';
    },
  );
}

function resolvedEnvironmentOf(service: ComposeService, host: Record<string, string> = {}): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(environmentOf(service)).map(([key, value]) => [
      key,
      value === undefined ? undefined : interpolate(value, host),
    ]),
  );
}

/** What the README tells an operator to run: `CREDENTIAL_PEPPER=$(openssl rand -base64 32) docker compose up`. */
const OPERATOR_SHELL = { CREDENTIAL_PEPPER: randomBytes(32).toString('base64') };

describe('docker-compose.yml', () => {
  it('defines postgres, the balancer, api and worker, and Temporal with its UI and workers as the temporal profile', () => {
    for (const name of ['postgres', 'balancer', 'temporal', 'temporal-ui', 'api', 'worker', 'temporal-worker']) {
      expect(services, `service "${name}"`).toHaveProperty([name]);
    }
    const profiled = Object.entries(services).filter(([, service]) => service.profiles?.length).map(([name]) => name);
    expect(profiled.sort()).toEqual(['temporal', 'temporal-ui', 'temporal-worker']);
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
    const config = (parse(composeText, { merge: true }) as { configs: Record<string, { content: string }> }).configs.haproxy!.content;
    expect(config).toContain('bind :4000');
    expect(config).toContain('option httpchk GET /readyz');
    expect(config).toMatch(/server-template api \d+ api:4000 check resolvers docker/);
  });

  it('gives every service except temporal-ui a healthcheck', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'temporal-ui') continue;
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
    if (name === 'api') expect(loadConfig(resolvedEnvironmentOf(services.api!, { ...OPERATOR_SHELL, TEMPORAL_ADDRESS: 'temporal:7233' })).temporal?.address).toBe('temporal:7233');
  });

  it.each(APP_SERVICES)('refuses to start %s without a CREDENTIAL_PEPPER from the operator (no public fallback)', (name) => {
    expect(() => resolvedEnvironmentOf(services[name] ?? {})).toThrow(RequiredVariableError);
    expect(() => resolvedEnvironmentOf(services[name] ?? {})).toThrow(/CREDENTIAL_PEPPER/);
    // Were the variable blank, the service itself refuses, naming it.
    expect(() => loadConfig({ ...resolvedEnvironmentOf(services[name] ?? {}, { ...OPERATOR_SHELL }), CREDENTIAL_PEPPER: '' })).toThrow(/CREDENTIAL_PEPPER/);
  });

  it('publishes only the balancer: the replicas, Temporal\'s gRPC port and UI, and PostgreSQL stay on the compose network', () => {
    const published = Object.entries(services)
      .filter(([, service]) => (service as { ports?: unknown[] }).ports?.length)
      .map(([name]) => name);
    expect(published).toEqual(['balancer']);
    expect((services.balancer as { ports?: unknown[] }).ports).toEqual(['4000:4000']);
  });
});

describe('compose interpolation helper', () => {
  it('resolves defaults and escapes without reading the host environment', () => {
    expect(interpolate('${A:-x}/${B-y}/${C}/$D/$$E')).toBe('x/y///$E');
    expect(() => interpolate('${F:?required}')).toThrow(RequiredVariableError);
    expect(interpolate('${F:?required}/${A:-x}/$D', { F: 'f', A: 'a', D: 'd' })).toBe('f/a/d');
  });
});
