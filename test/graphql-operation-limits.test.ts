import { readFileSync, readdirSync } from 'node:fs';
import { parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { graphqlSchema } from '../src/graphql/schema';
import { operationRules } from '../src/graphql/operation-guards';

const OPERATIONS = new URL('../schema/operations/', import.meta.url);

/** Each operation of schema/operations on its own, with the fragments it may use. */
function operations(): [string, DocumentNode][] {
  return readdirSync(OPERATIONS).flatMap((file) => {
    const document = parse(readFileSync(new URL(file, OPERATIONS), 'utf8'));
    const fragments = document.definitions.filter((d) => d.kind === 'FragmentDefinition');
    return document.definitions
      .filter((d) => d.kind === 'OperationDefinition')
      .map((d): [string, DocumentNode] => [`${file} ${d.name?.value}`, { ...document, definitions: [d, ...fragments] }]);
  });
}

describe('GraphQL depth, cost and alias limits', () => {
  const defaults = loadConfig({}).limits;

  it.each(operations())('let the published operation %s through at their defaults', async (_name, document) => {
    const errors = validate(await graphqlSchema(), document, [...specifiedRules, ...operationRules(defaults)]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('refuse an operation over each limit, saying which', async () => {
    const schema = await graphqlSchema();
    const tight = operationRules({ graphqlMaxDepth: 2, graphqlMaxCost: 3, graphqlMaxAliases: 1 });
    const deep = parse('{ projects(user: "u") { edges { node { id } } } }');
    expect(validate(schema, deep, [...specifiedRules, ...tight]).map((e) => e.message).join()).toMatch(/depth/i);
    const aliased = parse('{ a: markets { results { id } } b: markets { results { id } } }');
    expect(validate(schema, aliased, [...specifiedRules, ...tight]).map((e) => e.message).join()).toMatch(/alias/i);
    expect(validate(schema, aliased, [...specifiedRules, ...tight]).map((e) => e.message).join()).toMatch(/cost/i);
  });
});
