import type { CodegenConfig } from '@graphql-codegen/cli';

const CLIENT_PRESET_CONFIG = {
  useTypeImports: true,
  enumsAsTypes: true,
  scalars: {
    DateTimeISO: { input: 'string', output: 'string' },
    JSONObject: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
  },
};

/**
 * Typed documents for the operations in schema/operations, checked against the committed SDL.
 * `npm run codegen` rewrites test/support/generated (DocumentNodes, for the tests' graphql-js
 * clients) and the typed client's clients/typescript/src/generated/graphql (documents as strings:
 * the client sends them without graphql-js); a test fails when either output is stale.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['schema/operations/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'test/support/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: CLIENT_PRESET_CONFIG,
    },
    'clients/typescript/src/generated/graphql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { ...CLIENT_PRESET_CONFIG, documentMode: 'string' },
    },
  },
};

export default config;
