import { ValidationError, type FieldError } from '../../domain/errors';

/** More would be a list of everyone: a client with that many shops frames through one of them. */
const MAX_SHOP_ORIGINS = 20;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A client's shop origins: where its shops open the editor in an iframe, the editor's CSP
 * `frame-ancestors`. Each is an origin (`https://shop.example`, `https://shop.example:8443`),
 * optionally for every subdomain (`https://*.shop.example`): https only, except for a shop on the
 * developer's own machine (`http://localhost:3000`). No path, query, user or fragment, since
 * `frame-ancestors` matches origins. Answers them normalised (lower case, no trailing slash), once each.
 */
export function parseShopOrigins(values: readonly string[], path = 'origins'): string[] {
  if (values.length > MAX_SHOP_ORIGINS) throw ValidationError.field(path, `must list at most ${MAX_SHOP_ORIGINS} origins`);
  const errors: FieldError[] = [];
  const origins = values.map((value, i) => {
    const problem = problemOf(value);
    if (problem) errors.push({ path: `${path}[${i}]`, message: problem });
    return value.trim().toLowerCase().replace(/\/$/, '');
  });
  if (errors.length > 0) throw new ValidationError(errors, 'INVALID_SHOP_ORIGIN');
  return [...new Set(origins)];
}

function problemOf(value: string): string | undefined {
  // `*.` stands for any subdomain; the rest must parse as an origin on its own.
  const trimmed = value.trim().replace(/^https:\/\/\*\./i, 'https://wildcard.');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return `must be an origin such as https://shop.example, not ${JSON.stringify(value)}`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return 'must use https (http only for localhost)';
  }
  if (`${url.origin}/` !== `${url.href}` || trimmed.replace(/\/$/, '').length !== url.origin.length) {
    return 'must be an origin only: scheme, host and port, without a path, query or fragment';
  }
  return undefined;
}
