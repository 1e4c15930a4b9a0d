import { createHash } from 'node:crypto';
import { stdSerializers } from 'pino';

/**
 * What never reaches a log line: editor credentials (project ids), e-mail addresses, secrets, and
 * the values a database statement carried (names, phone numbers, addresses, payment references).
 * Three layers, because a value can arrive anywhere: known fields are censored by pino's `redact`
 * (headers, bodies, arguments we log) and dropped from logged errors (a driver error's `detail`,
 * `sql`, `params`), request URLs lose their query values (`/editor?id=…&user=…`), and every
 * finished line is scrubbed of what still looks like one (a project id in a workflow id or an error
 * message, an e-mail in a URL path, the literals of a statement MikroORM inlined into its error
 * message, a row or key PostgreSQL quoted in a detail).
 */

export const CENSORED = '[redacted]';

/** Fields censored wherever a log call or a serializer puts them (at the top, and one level deep). */
const SENSITIVE_FIELDS = [
  'accessSecret',
  'apiKey',
  'secret',
  'signature',
  'password',
  'pepper',
  'email',
  'editorProject',
  'editorKey',
  'authorization',
  'cookie',
];

export const REDACT_PATHS = [
  ...SENSITIVE_FIELDS.flatMap((field) => [field, `*.${field}`]),
  'req.headers["x-service"]',
  'req.headers["x-editor-project"]',
  'req.headers["x-editor-key"]',
  'req.body',
  'res.headers["set-cookie"]',
];

/**
 * Fields of an error that hold a statement's values: PostgreSQL's `detail` (`Key (…)=(…)`,
 * `Failing row contains (…)`), `where` and `internalQuery`, and the statement and its parameters
 * as drivers and ORMs attach them.
 */
const STATEMENT_VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'sql', 'params', 'parameters', 'bindings', 'query'];

/** pino's error serializer, without the fields that hold a statement's values, in the error and each error it holds. */
export function errorForLog(error: unknown): unknown {
  return withoutStatementValues(stdSerializers.err(error as Error), 0);
}

function withoutStatementValues(serialized: unknown, depth: number): unknown {
  if (typeof serialized !== 'object' || serialized === null || depth > 4) return serialized;
  const fields = serialized as Record<string, unknown>;
  for (const field of STATEMENT_VALUE_FIELDS) delete fields[field];
  // The original error rides along as a non-enumerable `raw`; the others may hold errors of their own.
  for (const [key, value] of Object.entries(fields))
    if (typeof value === 'object') fields[key] = withoutStatementValues(value, depth + 1);
  return serialized;
}

/** `path?a=1&b=2` -> `path?a=[redacted]&b=[redacted]`: the names say what was asked, the values may be credentials. */
export function withoutQueryValues(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=', 1)[0]}=${CENSORED}`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}

/** The request as a log line shows it: Fastify's fields, with the query's values censored. */
export function requestForLog(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : withoutQueryValues(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Issued project ids (`p-` + 24 base62), e-mail addresses, our credential and signing secrets. */
const PROJECT_ID = /\bp-[A-Za-z0-9]{24}\b/g;
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const SECRET = /\b(?:as|key)_(?:dev|prod)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9+/=]+|([?&]signature=)[^&"\s\\]+/g;
/** A text each alternative of SECRET contains. */
const SECRET_MARKS = ['_dev_', '_prod_', 'whsec_', 'signature='];
/**
 * A statement in a line, up to the end of the JSON string that holds it: MikroORM inlines a
 * statement's values into it and prefixes a driver error's message with it (`insert into "orders"
 * (…) values ('Ada', '+49 30 …') - duplicate key …`).
 */
const STATEMENT = /\b(?:insert\s+into|update|delete\s+from|select)\b(?:[^"\\]|\\.)*/gi;
/** A quoted literal of a statement (`''` is a quote inside it); never past the end of the JSON string. */
const STATEMENT_LITERAL = /'(?:[^'"\\]|''|\\.)*'/g;
/** PostgreSQL's quotes of a row or key in a message or detail: `Key (order_id)=(…)`, `Failing row contains (…)`. */
const QUOTED_ROW = /(Key \([^)"]*\)=\(|Failing row contains \()(?:[^"\\]|\\.)*\)/g;

/**
 * A finished log line, scrubbed. A project id becomes `p#` and the start of its SHA-256: the same
 * project has the same mark in every line (operators can follow it, and compute it from an id
 * they hold), but the mark opens nothing.
 */
export function scrubLogLine(line: string): string {
  // Each pattern runs only on a line holding the text every match of it must contain: a plain
  // substring search is several times cheaper than the pattern's scan, and most lines hold none.
  let scrubbed = line;
  if (scrubbed.includes('p-'))
    scrubbed = scrubbed.replace(PROJECT_ID, (id) => `p#${createHash('sha256').update(id).digest('hex').slice(0, 12)}`);
  if (scrubbed.includes('@') || scrubbed.includes('%40')) scrubbed = scrubbed.replace(EMAIL, '[email]');
  if (SECRET_MARKS.some((mark) => scrubbed.includes(mark))) {
    scrubbed = scrubbed.replace(SECRET, (_match, query: string | undefined) =>
      query ? `${query}${CENSORED}` : CENSORED,
    );
  }
  if (scrubbed.includes("'"))
    scrubbed = scrubbed.replace(STATEMENT, (statement) => statement.replace(STATEMENT_LITERAL, `'${CENSORED}'`));
  if (scrubbed.includes('Key (') || scrubbed.includes('Failing row'))
    scrubbed = scrubbed.replace(QUOTED_ROW, `$1${CENSORED})`);
  return scrubbed;
}
