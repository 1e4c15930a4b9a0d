/**
 * JSON with every object's keys sorted: the same value hashes the same however it was written.
 *
 * Written with an explicit stack, not recursion (nor JSON.stringify of the whole value, which
 * recurses): it hashes request bodies before any field of them is checked (Idempotency-Key, an
 * order's digest), so a body nested 20,000 levels deep must hash, and then be refused by the check
 * of its field, instead of overflowing the call stack into a 500. The text is the one
 * `JSON.stringify` writes for the value with its keys sorted (undefined and function members left
 * out, `null` for them in arrays), so stored digests stay valid.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  /** Still to write, last first: a value, or text (punctuation, a key) to copy. */
  const todo: ({ value: unknown } | { text: string })[] = [{ value }];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if ('text' in next) {
      out.push(next.text);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '[' }];
      current.forEach((item, i) => parts.push(...(i > 0 ? [{ text: ',' }] : []), { value: item }));
      parts.push({ text: ']' });
      pushReversed(todo, parts);
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      const keys = sortedKeys(record).filter((key) => isWritten(record[key]));
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '{' }];
      keys.forEach((key, i) =>
        parts.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` }, { value: record[key] }),
      );
      parts.push({ text: '}' });
      pushReversed(todo, parts);
    } else {
      // A leaf; undefined, a function or a symbol only reach here inside an array, where JSON writes null.
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}

/**
 * The keys sorted, in the order an object built from them in sorted order lists them (as the
 * digests were first made): array-index keys ("0", "10") first in numeric order, then the rest sorted.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record).sort();
  const isIndex = (key: string) => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
  return [...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((key) => !isIndex(key))];
}

/** Pushes `parts` so that they pop in order; a loop, as spreading a long array as arguments overflows too. */
function pushReversed<T>(todo: T[], parts: T[]): void {
  for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
}

/** Whether JSON.stringify writes an object member with this value. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
