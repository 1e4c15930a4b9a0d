import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of the service's pages (/editor, /dashboard). Scripts and styles come
 * from this origin only; the one inline script, the import map, is allowed by its hash (it is the
 * same in every answer, so no nonce is needed). Pictures come from here or from PUBLIC_URL (the
 * signed /files URLs), GraphQL over fetch and graphql-ws from here. `frameAncestors` lists who may
 * frame the page: the editor's are its client's shop origins, the dashboard's nobody.
 */
export function pageContentSecurityPolicy(options: {
  html: string;
  publicUrl: string;
  frameAncestors: readonly string[];
}): string {
  const publicOrigin = new URL(options.publicUrl).origin;
  const socketOrigin = publicOrigin.replace(/^http/, 'ws');
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScriptHashes(options.html)],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', publicOrigin],
    'connect-src': ["'self'", publicOrigin, socketOrigin],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': options.frameAncestors.length > 0 ? [...options.frameAncestors] : ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`)
    .join('; ');
}

/** `'sha256-…'` of each inline <script> of the page, as CSP hashes them (the text between the tags). */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
}
