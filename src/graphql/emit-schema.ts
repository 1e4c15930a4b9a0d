/** Writes schema/schema.graphql from the resolvers: `npm run schema:emit`. */
import { writeFile } from 'node:fs/promises';
import { printedSchema } from './schema';

export const SCHEMA_FILE = new URL('../../schema/schema.graphql', import.meta.url);

await writeFile(SCHEMA_FILE, await printedSchema());
console.log(`wrote ${SCHEMA_FILE.pathname}`);
