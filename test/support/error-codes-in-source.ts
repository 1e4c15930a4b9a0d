import { readdir, readFile } from 'node:fs/promises';

/** The errors a client can receive; other Error classes are internal or operator-facing. */
const CLIENT_ERRORS = [
  'ValidationError',
  'UnauthenticatedError',
  'ForbiddenError',
  'NotFoundError',
  'ConflictError',
  'RejectedError',
  'RateLimitedError',
  'DomainError',
].join('|');
/** A client error's construction: `new XError(`, `ValidationError.field(`, `problem(`, or a `super(` inside one. */
const CLIENT_ERROR_CALL = new RegExp(
  `(?:new (?:${CLIENT_ERRORS})|ValidationError\\.field|\\bproblem|\\bsuper)\\(`,
  'g',
);

/** Every `'CODE'` literal among the arguments of a client error's construction, across src/. */
export async function errorCodesInSource(): Promise<Set<string>> {
  const root = new URL('../../src/', import.meta.url);
  const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'));
  const codes = new Set<string>();
  for (const file of files) {
    const source = await readFile(new URL(file, root), 'utf8');
    for (const match of source.matchAll(CLIENT_ERROR_CALL)) {
      const args = argumentsAt(source, match.index + match[0].length);
      for (const [, code] of args.matchAll(/'([A-Z][A-Z0-9_]{3,})'/g)) codes.add(code);
    }
  }
  return codes;
}

/** The text up to the parenthesis that closes the call opened just before `start`. */
function argumentsAt(source: string, start: number): string {
  let depth = 1;
  for (let i = start; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(start, i);
  }
  return source.slice(start);
}
