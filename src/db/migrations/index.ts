import { Migration20261121164249 } from './Migration20261121164249';
import { Migration20261121200000 } from './Migration20261121200000';
import { Migration20261121210000 } from './Migration20261121210000';
import { Migration20261121220000 } from './Migration20261121220000';
import { Migration20261122210000 } from './Migration20261122210000';
import { Migration20261122212019 } from './Migration20261122212019';
import { Migration20261122235500 } from './Migration20261122235500';
import { Migration20261123000428 } from './Migration20261123000428';
import { Migration20261126000300 } from './Migration20261126000300';
import { Migration20261126000400 } from './Migration20261126000400';
import { Migration20261126000500 } from './Migration20261126000500';
import { Migration20261126000600 } from './Migration20261126000600';
import { Migration20261127093000 } from './Migration20261127093000';
import { Migration20261127110000 } from './Migration20261127110000';
import { Migration20261127120000 } from './Migration20261127120000';
import { Migration20261127120010 } from './Migration20261127120010';
import { Migration20261127140000 } from './Migration20261127140000';
import { Migration20261127160000 } from './Migration20261127160000';
import { Migration20261127162000 } from './Migration20261127162000';
import { Migration20261128060000 } from './Migration20261128060000';
import { Migration20261128090000 } from './Migration20261128090000';

/** Every migration in order; the ORM applies the ones not yet recorded in the database. */
export const MIGRATIONS = [
  { name: 'Migration20261121164249', class: Migration20261121164249 },
  { name: 'Migration20261121200000', class: Migration20261121200000 },
  { name: 'Migration20261121210000', class: Migration20261121210000 },
  { name: 'Migration20261121220000', class: Migration20261121220000 },
  { name: 'Migration20261122210000', class: Migration20261122210000 },
  { name: 'Migration20261122212019', class: Migration20261122212019 },
  { name: 'Migration20261122235500', class: Migration20261122235500 },
  { name: 'Migration20261123000428', class: Migration20261123000428 },
  { name: 'Migration20261126000300', class: Migration20261126000300 },
  { name: 'Migration20261126000400', class: Migration20261126000400 },
  { name: 'Migration20261126000500', class: Migration20261126000500 },
  { name: 'Migration20261126000600', class: Migration20261126000600 },
  { name: 'Migration20261127093000', class: Migration20261127093000 },
  { name: 'Migration20261127110000', class: Migration20261127110000 },
  { name: 'Migration20261127120000', class: Migration20261127120000 },
  { name: 'Migration20261127120010', class: Migration20261127120010 },
  { name: 'Migration20261127140000', class: Migration20261127140000 },
  { name: 'Migration20261127160000', class: Migration20261127160000 },
  { name: 'Migration20261127162000', class: Migration20261127162000 },
  { name: 'Migration20261128060000', class: Migration20261128060000 },
  { name: 'Migration20261128090000', class: Migration20261128090000 },
];
