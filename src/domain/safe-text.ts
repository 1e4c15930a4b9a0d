import type { FieldError } from './errors';
import { MAX_FREEFORM_BYTES, MAX_FREEFORM_DEPTH } from './limits';

/*
 * PostgreSQL stores neither a NUL character in text nor a lone UTF-16 surrogate in JSON (`\u0000`
 * and an unpaired `\ud800` are refused), and a lone surrogate is not text in any encoding: both are
 * refused at the door, wherever a request carries them, naming the field.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE.test(value);
}

/**
 * Keys that name JavaScript's prototype machinery. Stored in a free-form object (metadata, custom)
 * they wait for the first `Object.assign` or spread that turns them into a prototype; REST's JSON
 * parser refuses `__proto__` (and `constructor.prototype`), so every transport refuses all three, anywhere.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const PROTOTYPE_KEY_MESSAGE = 'must not be named __proto__, constructor or prototype';

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** `a` + `b` -> `a.b`, `a` + `0` -> `a[0]`: the field as the client wrote it. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/**
 * The first string (value or object key) in `value` that is not safe text, or the first key that
 * is a prototype key, as a field error; null when there is none. Iterative, so a hostile nesting depth cannot overflow the stack.
 */
export function unsafeTextError(value: unknown, path: string): FieldError | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isSafeText(current))
        return { path: at || '(body)', message: 'must not contain a NUL character or an unpaired UTF-16 surrogate' };
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, childPath(at, i)]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (!isSafeText(key))
          return {
            path: at || '(body)',
            message: 'must not have a key with a NUL character or an unpaired UTF-16 surrogate',
          };
        if (isPrototypeKey(key)) return { path: childPath(at, key), message: PROTOTYPE_KEY_MESSAGE };
        stack.push([item, childPath(at, key)]);
      }
    }
  }
  return null;
}

/**
 * A free-form object (stored as the client sent it) deeper than MAX_FREEFORM_DEPTH or larger than
 * MAX_FREEFORM_BYTES as JSON, as a field error; null when it fits.
 */
export function freeformLimitError(value: unknown, path: string): FieldError | null {
  if (value === undefined || value === null) return null;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_FREEFORM_DEPTH)
      return { path, message: `must not nest objects or arrays more than ${MAX_FREEFORM_DEPTH} levels deep` };
    for (const item of Object.values(current)) stack.push([item, depth + 1]);
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_FREEFORM_BYTES)
    return { path, message: `must be at most ${MAX_FREEFORM_BYTES} bytes as JSON` };
  return null;
}
