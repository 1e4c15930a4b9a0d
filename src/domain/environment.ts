/** Each client has a sandbox (`dev`) and a live (`prod`) partition with their own data and credentials. */
export const ENVIRONMENTS = ['dev', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(value: unknown): value is Environment {
  return value === 'dev' || value === 'prod';
}
