import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the operations in schema/operations, checked against the committed SDL.
 * `npm run codegen` rewrites test/support/generated; a test fails when that output is stale.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['schema/operations/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'test/support/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          DateTimeISO: { input: 'string', output: 'string' },
          JSONObject: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
        },
      },
    },
  },
};

export default config;
