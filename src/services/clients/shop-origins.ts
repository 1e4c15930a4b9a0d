import { ValidationError, type FieldError } from '../../domain/errors';

/** More would be a list of everyone: a client with that many shops frames through one of them. */
const MAX_SHOP_ORIGINS = 20;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A client's shop origins: where its shops open the editor in an iframe, the editor's CSP
 * `frame-ancestors`. Each is an origin (`https://shop.example`, `https://shop.example:8443`),
 * optionally for every subdomain (`https://*.shop.example`): https only, except for a shop on the
 * developer's own machine (`http://localhost:3000`). No path, query, user or fragment, since
 * `frame-ancestors` matches origins; no other wildcard (`https://*` would be every site) and no host
 * that is not a name of two or more labels or an IP address. Answers them normalised (lower case, no trailing slash), once each.
 */
export function parseShopOrigins(values: readonly string[], path = 'origins'): string[] {
  if (values.length > MAX_SHOP_ORIGINS)
    throw ValidationError.field(path, `must list at most ${MAX_SHOP_ORIGINS} origins`);
  const errors: FieldError[] = [];
  const origins = values.map((value, i) => {
    const problem = problemOf(value);
    if (problem) errors.push({ path: `${path}[${i}]`, message: problem });
    return value.trim().toLowerCase().replace(/\/$/, '');
  });
  if (errors.length > 0) throw new ValidationError(errors, 'INVALID_SHOP_ORIGIN');
  return [...new Set(origins)];
}

/** A DNS name of at least two labels (`shop.example`), each of letters, digits and inner hyphens. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function problemOf(value: string): string | undefined {
  // `*.` stands for any subdomain; the rest must parse as an origin on its own.
  const trimmed = value.trim().replace(/^https:\/\/\*\./i, 'https://wildcard.');
  // Any other `*` would widen frame-ancestors to hosts nobody named (`https://*` is every https site).
  if (trimmed.includes('*'))
    return 'must name its host: a wildcard only as https://*.shop.example (every subdomain of one domain)';
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
  if (!LOOPBACK_HOSTS.has(url.hostname) && !HOST_NAME.test(url.hostname) && !isIpLiteral(url.hostname)) {
    return 'must be scheme://host[:port] with a host name of two or more labels (shop.example) or an IP address';
  }
  // `*.com` would be every shop of a top-level domain: the wildcard stands before a domain of two labels or more.
  if (trimmed !== value.trim() && url.hostname.split('.').length < 3)
    return 'must name a domain of two or more labels after *. (https://*.shop.example)';
  return undefined;
}

function isIpLiteral(hostname: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) || /^\[[0-9a-f:.]+\]$/.test(hostname);
}
