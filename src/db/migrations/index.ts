import { Migration20261121164249 } from './Migration20261121164249';

/** Every migration in order; the ORM applies the ones not yet recorded in the database. */
export const MIGRATIONS = [{ name: 'Migration20261121164249', class: Migration20261121164249 }];
