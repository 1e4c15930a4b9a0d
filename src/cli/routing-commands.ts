/**
 * A shop's print routing and hold window per environment (docs/api.md, Printers and routing):
 * `routing show` prints it, `routing set` sets it from a JSON file (`-` reads stdin) with the members
 * of GraphQL `setPrintRouting`'s input; members left out keep their value.
 */
import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { scopeToTenant } from '../db/tenant-filter';
import { isEnvironment, type Environment } from '../domain/environment';
import { ValidationError } from '../domain/errors';
import { printRoutingOf, setPrintRouting } from '../services/routing/print-settings';
import { terminalJson, terminalLine } from './terminal-text';
import type { PrintRouting } from '../domain/print-routing';

export const ROUTING_USAGE = `  npm run cli -- routing show --client <clientId> [--env dev|prod] [--json]
  npm run cli -- routing set --client <clientId> [--env dev|prod] [--json] <routing.json | ->`;

export interface RoutingCommandInput {
  em: EntityManager;
  values: { client?: string; env?: string; json: boolean };
  rest: string[];
  usage(message: string): never;
}

/** Runs `command` if it is one of these; false when it is not. */
export async function runRoutingCommand(command: string, input: RoutingCommandInput): Promise<boolean> {
  if (command !== 'routing show' && command !== 'routing set') return false;
  const { em, values, rest, usage } = input;
  if (!values.client) return usage(`${command} needs --client <clientId>`);
  if (values.env !== undefined && !isEnvironment(values.env)) return usage('--env must be dev or prod');
  const target = { clientId: values.client, env: (values.env ?? 'dev') as Environment };
  const scoped = scopeToTenant(em, target);
  let routing: PrintRouting;
  if (command === 'routing show') routing = await printRoutingOf(scoped, target);
  else {
    const file = rest[0];
    if (!file) return usage('routing set needs a JSON file (or - for stdin)');
    const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw ValidationError.field('routing', `is not JSON: ${(error as Error).message}`);
    }
    routing = await setPrintRouting(scoped, target, parsed);
  }
  if (values.json) console.log(terminalJson({ clientId: target.clientId, env: target.env, ...routing }));
  else printRouting(target.env, routing);
  return true;
}

function printRouting(env: Environment, routing: PrintRouting): void {
  console.log(terminalLine`print routing (${env}):`);
  routing.rules.forEach((rule, i) => {
    const products = rule.match.products?.join(',') ?? 'any product';
    const countries = rule.match.countries?.join(',') ?? 'any country';
    console.log(terminalLine`  ${String(i)}. ${products} to ${countries}: ${rule.printers.join(' then ')}`);
  });
  console.log(
    terminalLine`  default: ${routing.defaultPrinters.join(' then ') || (env === 'dev' ? 'sandbox' : 'PRINTER')}`,
  );
  console.log(terminalLine`  hold window: ${String(routing.holdWindowSeconds)} s`);
  console.log(
    terminalLine`  accept timeout: ${routing.acceptTimeoutSeconds === null ? 'PRINTER_ACCEPT_TIMEOUT' : `${routing.acceptTimeoutSeconds} s`}`,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
