/** Writes clients/typescript/src/generated/rest.ts from schema/openapi.json (part of `npm run codegen`). */
import { mkdir, writeFile } from 'node:fs/promises';
import { REST_TYPES_FILE, restTypesSource } from './rest-types';

await mkdir(new URL('.', REST_TYPES_FILE), { recursive: true });
await writeFile(REST_TYPES_FILE, await restTypesSource());
console.log(`wrote ${REST_TYPES_FILE.pathname}`);
