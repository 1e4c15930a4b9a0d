import { readFileSync, readdirSync } from 'node:fs';
import { parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { graphqlSchema } from '../../src/graphql/schema';
import { operationRules } from '../../src/graphql/operation-guards';

const OPERATIONS = new URL('../../schema/operations/', import.meta.url);

/** Each operation of schema/operations on its own, with the fragments it may use. */
function operations(): [string, DocumentNode][] {
  return readdirSync(OPERATIONS).flatMap((file) => {
    const document = parse(readFileSync(new URL(file, OPERATIONS), 'utf8'));
    const fragments = document.definitions.filter((d) => d.kind === 'FragmentDefinition');
    return document.definitions
      .filter((d) => d.kind === 'OperationDefinition')
      .map((d): [string, DocumentNode] => [
        `${file} ${d.name?.value}`,
        { ...document, definitions: [d, ...fragments] },
      ]);
  });
}

const PAGES = new URL('../../web/app/', import.meta.url);

/**
 * The operations the editor and dashboard send, as written in their sources: whole template
 * literals, and the editor's edits (quoted mutations with its project fields in place of {FIELDS}).
 */
function pageOperations(): [string, DocumentNode][] {
  const files = readdirSync(PAGES).filter((file) => file.endsWith('.js'));
  const sources = new Map(files.map((file) => [file, readFileSync(new URL(file, PAGES), 'utf8')]));
  // Field lists the pages build their operations from (`const BOOK_FIELDS = \`...\``), each with the lists it
  // names filled in. The editor's edits are sent with its PROJECT_FIELDS wherever they are written (the photo
  // tray's too), so the lists are the editor's, whichever page file holds the mutation.
  const lists = new Map<string, string>();
  for (const source of sources.values())
    for (const [, name, text] of source.matchAll(/const ([A-Z_]+_FIELDS) = `([^`]*)`/g))
      lists.set(
        name,
        text.replaceAll(/\$\{([A-Z_]+_FIELDS)\}/g, (_, used: string) => lists.get(used) ?? ''),
      );
  return [...sources].flatMap(([file, source]) => {
    const filled = (text: string) =>
      text.replaceAll(/\$\{([A-Z_]+_FIELDS)\}/g, (whole, used: string) => lists.get(used) ?? whole);
    const projectFields = lists.get('PROJECT_FIELDS') ?? '';
    const texts = [
      ...[...source.matchAll(/`((?:query|mutation|subscription)\b[^`]*)`/g)].map((m) => filled(m[1])),
      ...[...source.matchAll(/'((?:query|subscription) \([^']*)'/g)].map((m) => m[1]),
      ...[...source.matchAll(/'(mutation [^']*\{FIELDS\}[^']*)'/g)].map((m) =>
        m[1].replace('{FIELDS}', `{ ${projectFields} }`),
      ),
    ];
    return texts
      .filter((text) => !text.includes('${'))
      .map((text): [string, DocumentNode] => [`${file} ${text.slice(0, 48).replace(/\s+/g, ' ')}`, parse(text)]);
  });
}

describe('GraphQL depth, cost and alias limits', () => {
  const defaults = loadConfig({}).limits;

  it.each(operations())('let the published operation %s through at their defaults', async (_name, document) => {
    const errors = validate(await graphqlSchema(), document, [...specifiedRules, ...operationRules(defaults)]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it.each(pageOperations())("let the web pages' operation %s through at their defaults", async (_name, document) => {
    const errors = validate(await graphqlSchema(), document, [...specifiedRules, ...operationRules(defaults)]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it("finds the pages' operations", () => {
    expect(pageOperations().length).toBeGreaterThanOrEqual(12);
  });

  it('refuse an operation over each limit, saying which', async () => {
    const schema = await graphqlSchema();
    const tight = operationRules({ graphqlMaxDepth: 2, graphqlMaxCost: 3, graphqlMaxAliases: 1 });
    const deep = parse('{ projects(user: "u") { edges { node { id } } } }');
    expect(
      validate(schema, deep, [...specifiedRules, ...tight])
        .map((e) => e.message)
        .join(),
    ).toMatch(/depth/i);
    const aliased = parse('{ a: markets { results { id } } b: markets { results { id } } }');
    expect(
      validate(schema, aliased, [...specifiedRules, ...tight])
        .map((e) => e.message)
        .join(),
    ).toMatch(/alias/i);
    expect(
      validate(schema, aliased, [...specifiedRules, ...tight])
        .map((e) => e.message)
        .join(),
    ).toMatch(/cost/i);
  });

  describe('cost of connections', () => {
    /** The cost graphql-armor finds, read from its refusal at a limit of 1. */
    const costOf = async (query: string): Promise<number> => {
      const errors = validate(await graphqlSchema(), parse(query), [
        ...specifiedRules,
        ...operationRules({ graphqlMaxDepth: 20, graphqlMaxCost: 1, graphqlMaxAliases: 20 }),
      ]);
      expect(errors.map((e) => e.message).filter((m) => !/Cost limit/.test(m))).toEqual([]);
      const found = /found (\d+(\.\d+)?)/.exec(errors.map((e) => e.message).join())?.[1];
      if (!found) throw new Error(`no cost in ${errors.map((e) => e.message).join()}`);
      return Number(found);
    };
    const projects = (first: string) =>
      `query${first.includes('$n') ? ' ($n: Int!)' : ''} { projects(user: "u"${first}) { edges { cursor node { id } } } }`;

    it('multiplies by first: first: 100 costs 100 times first: 1', async () => {
      expect(await costOf(projects(', first: 100'))).toBe(100 * (await costOf(projects(', first: 1'))));
    });

    it('counts a first given as a variable at the most the field accepts, whatever its value will be', async () => {
      expect(await costOf(projects(', first: $n'))).toBe(await costOf(projects(', first: 100')));
    });

    it('counts an omitted first at its default', async () => {
      expect(await costOf(projects(''))).toBe(await costOf(projects(', first: 100')));
      const orders = (first: string) => `{ orders${first} { edges { node { orderId } } } }`;
      expect(await costOf(orders(''))).toBe(await costOf(orders('(first: 10)')));
    });

    it('multiplies nested pages, also inside fragments, and refuses what the default limit cannot afford', async () => {
      const nested =
        'query ($n: Int!) { campaigns(first: $n) { edges { node { ...Rows } } } } fragment Rows on Campaign { rows { edges { node { line } } } }';
      expect(await costOf(nested)).toBeGreaterThan(100 * 100);
      const errors = validate(await graphqlSchema(), parse(nested), [...specifiedRules, ...operationRules(defaults)]);
      expect(errors.map((e) => e.message).join()).toMatch(/Cost limit of 50000 exceeded/);
    });
  });
});
