/**
 * A query's text without its literal values. MikroORM inlines parameters into the SQL it sends, so the text pg's
 * instrumentation records would carry customers' names, addresses and ids into every trace store; the shape of the
 * query is what a trace needs.
 */
export function withoutLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, '?').replace(/(?<![\w$."])-?\d+(?:\.\d+)?(?![\w"])/g, '?');
}
