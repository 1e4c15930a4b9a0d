import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import codegenConfig from '../../codegen';
import { REST_TYPES_FILE, restTypesSource } from '../../clients/typescript/codegen/rest-types';
import { printedSchema } from '../../src/graphql/schema';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('committed GraphQL artefacts', () => {
  it('schema/schema.graphql is the SDL the resolvers build', async () => {
    const committed = await readFile(path.join(ROOT, 'schema/schema.graphql'), 'utf8');
    expect(committed, 'schema/schema.graphql is stale: run `npm run schema:emit` and commit it').toBe(
      await printedSchema(),
    );
  });

  it("test/support/generated and the client's GraphQL documents are what codegen makes of the schema", async () => {
    const outputs: { filename: string; content: string }[] = await generate(
      { ...codegenConfig, cwd: ROOT, silent: true },
      false,
    );
    const filenames = outputs.map((output) => path.relative(ROOT, path.resolve(ROOT, output.filename))).sort();
    expect(filenames).toEqual([
      'clients/typescript/src/generated/graphql/gql.ts',
      'clients/typescript/src/generated/graphql/graphql.ts',
      'clients/typescript/src/generated/graphql/index.ts',
      'test/support/generated/gql.ts',
      'test/support/generated/graphql.ts',
      'test/support/generated/index.ts',
    ]);
    for (const output of outputs) {
      const committed = await readFile(path.resolve(ROOT, output.filename), 'utf8').catch(() => '(missing)');
      expect(committed, `${output.filename} is stale: run \`npm run codegen\` and commit it`).toBe(output.content);
    }
  });

  it("the client's REST types are what openapi-typescript makes of schema/openapi.json", async () => {
    const committed = await readFile(REST_TYPES_FILE, 'utf8').catch(() => '(missing)');
    const stale = 'clients/typescript/src/generated/rest.ts is stale: run `npm run codegen` and commit it';
    expect(committed, stale).toBe(await restTypesSource());
  });
});
