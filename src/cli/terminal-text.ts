/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC starts a sequence that can
 * clear the screen or move the cursor; CR and LF can start a fake line), DEL, C1 controls (0x9B
 * is a one-byte CSI) and the bidirectional overrides and isolates that reorder what is shown.
 */
const ACTING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character a terminal would act on written as its escape (`\x1b`, `\u202e`): shown, never obeyed. */
export function shownAsText(text: string): string {
  return text.replace(ACTING, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A template tag for a line of CLI output: what the template itself says is printed as written,
 * every value put into it (an order id, a shop's name, a URL, an error message: anything a client
 * or a stored row could carry) is shownAsText. `terminalLine\`${id}  ${orderId}\``
 */
export function terminalLine(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce(
    (line, piece, i) => line + piece + (i < values.length ? shownAsText(String(values[i])) : ''),
    '',
  );
}

/** Characters JSON.stringify leaves as they are that a terminal still acts on (C1 controls, bidirectional controls). */
const ACTING_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `value` as JSON for a terminal: JSON.stringify's text with the characters it leaves raw written as `\uXXXX` (the same JSON value). */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(
    ACTING_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
