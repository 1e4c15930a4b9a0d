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

const PAGES = new URL('../web/app/', import.meta.url);

/**
 * The operations the editor and dashboard send, as written in their sources: whole template
 * literals, and the editor's edits (quoted mutations with its project fields in place of {FIELDS}).
 */
function pageOperations(): [string, DocumentNode][] {
  return readdirSync(PAGES)
    .filter((file) => file.endsWith('.js'))
    .flatMap((file) => {
      const source = readFileSync(new URL(file, PAGES), 'utf8');
      const projectFields = /const PROJECT_FIELDS = `([^`]*)`/.exec(source)?.[1] ?? '';
      const texts = [
        ...[...source.matchAll(/`((?:query|mutation|subscription)\b[^`]*)`/g)].map((m) => m[1].replaceAll('${PROJECT_FIELDS}', projectFields)),
        ...[...source.matchAll(/'(mutation [^']*\{FIELDS\}[^']*)'/g)].map((m) => m[1].replace('{FIELDS}', `{ ${projectFields} }`)),
      ];
      return texts.filter((text) => !text.includes('${')).map((text): [string, DocumentNode] => [`${file} ${text.slice(0, 48).replace(/\s+/g, ' ')}`, parse(text)]);
    });
}

describe('GraphQL depth, cost and alias limits', () => {
  const defaults = loadConfig({}).limits;

  it.each(operations())('let the published operation %s through at their defaults', async (_name, document) => {
    const errors = validate(await graphqlSchema(), document, [...specifiedRules, ...operationRules(defaults)]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it.each(pageOperations())('let the web pages\' operation %s through at their defaults', async (_name, document) => {
    const errors = validate(await graphqlSchema(), document, [...specifiedRules, ...operationRules(defaults)]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('finds the pages\' operations', () => {
    expect(pageOperations().length).toBeGreaterThanOrEqual(12);
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
