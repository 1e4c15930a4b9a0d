import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { Type } from 'typebox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Client, PrintSettings } from '../../db/entities';
import type { Environment } from '../../domain/environment';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import {
  MAX_ACCEPT_TIMEOUT_SECONDS,
  MAX_HOLD_WINDOW_SECONDS,
  MAX_PRINTERS_PER_RULE,
  MAX_ROUTING_RULES,
  MAX_RULE_MATCHES,
  PRINTER_NAMES,
  type PrintRouting,
  type PrinterName,
} from '../../domain/print-routing';
import { schemaCheck } from '../schema-check';
import { getCountryData, type TCountryCode } from 'countries-list';

const PrinterList = Type.Array(Type.Enum(PRINTER_NAMES, { type: 'string' }), {
  maxItems: MAX_PRINTERS_PER_RULE,
  uniqueItems: true,
  description: `printers to try in turn, each one of ${PRINTER_NAMES.join(', ')}`,
});

/** What a shop sets (CLI `routing set`, GraphQL `setPrintRouting`): every member optional, those left out keep their value. */
const PrintRoutingInput = Type.Object(
  {
    rules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            match: Type.Object(
              {
                products: Type.Optional(
                  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
                    minItems: 1,
                    maxItems: MAX_RULE_MATCHES,
                  }),
                ),
                countries: Type.Optional(
                  Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { minItems: 1, maxItems: MAX_RULE_MATCHES }),
                ),
              },
              { additionalProperties: false },
            ),
            printers: { ...PrinterList, minItems: 1 },
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_ROUTING_RULES },
      ),
    ),
    defaultPrinters: Type.Optional(PrinterList),
    holdWindowSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_HOLD_WINDOW_SECONDS })),
    acceptTimeoutSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ACCEPT_TIMEOUT_SECONDS,
        description: "0: the operator's PRINTER_ACCEPT_TIMEOUT",
      }),
    ),
  },
  { additionalProperties: false },
);

const checkInput = schemaCheck(PrintRoutingInput);

/** A shop's routing and hold window as they are now; a shop that set nothing has no rules, no hold. */
export async function printRoutingOf(em: EntityManager, target: { clientId: string; env: Environment }) {
  const settings = await em.findOne(PrintSettings, { client: target.clientId, env: target.env });
  return routingOf(settings);
}

function routingOf(settings: PrintSettings | null): PrintRouting {
  return {
    rules: settings?.rules ?? [],
    defaultPrinters: (settings?.defaultPrinters ?? []) as PrinterName[],
    holdWindowSeconds: settings?.holdWindowSeconds ?? 0,
    acceptTimeoutSeconds: settings?.acceptTimeoutSeconds ?? null,
  };
}

/**
 * Sets the shop's routing for one environment, checked whole before anything is written (a refusal
 * names the field: `rules[1].match.countries[0]`). Countries are ISO 3166 alpha-2, stored upper case.
 * The members given replace theirs; orders already routed keep their routing.
 */
export async function setPrintRouting(
  em: EntityManager,
  target: { clientId: string; env: Environment },
  input: unknown,
): Promise<PrintRouting> {
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  const checked = checkInput(input);
  const rules = checked.rules?.map((rule, i) => ({
    match: {
      ...(rule.match.products ? { products: rule.match.products } : {}),
      ...(rule.match.countries
        ? {
            countries: rule.match.countries.map((code, j) => {
              const iso2 = code.toUpperCase();
              if (!getCountryData(iso2 as TCountryCode)?.iso3)
                throw ValidationError.field(`rules[${i}].match.countries[${j}]`, 'must be an ISO 3166 alpha-2 country');
              return iso2;
            }),
          }
        : {}),
    },
    printers: rule.printers as PrinterName[],
  }));
  return em.transactional(async (tx) => {
    if (!(await tx.findOne(Client, { id: target.clientId })))
      throw new NotFoundError('client', target.clientId, 'client');
    // Two first calls at once both find no row: ON CONFLICT lets the second wait for the first and insert nothing.
    await tx
      .createQueryBuilder(PrintSettings)
      .insert({ id: randomUUID(), client: target.clientId, env: target.env, updatedAt: new Date() })
      .onConflict(['client', 'env'])
      .ignore()
      .execute('run');
    const settings = await tx.findOneOrFail(
      PrintSettings,
      { client: target.clientId, env: target.env },
      { refresh: true, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (rules) settings.rules = rules;
    if (checked.defaultPrinters) settings.defaultPrinters = checked.defaultPrinters;
    if (checked.holdWindowSeconds !== undefined) settings.holdWindowSeconds = checked.holdWindowSeconds;
    if (checked.acceptTimeoutSeconds !== undefined)
      settings.acceptTimeoutSeconds = checked.acceptTimeoutSeconds || null;
    settings.updatedAt = new Date();
    return routingOf(settings);
  });
}
