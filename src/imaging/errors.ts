/** Why an input could not be used as an image. */
export type NotAnImageReason =
  /** Zero bytes. */
  | 'empty'
  /** Not a format we decode (unknown bytes, text, or a non-photo format such as SVG/PDF). */
  | 'unsupported-format'
  /** Declares more pixels than we are willing to decode (decompression-bomb guard). */
  | 'too-large'
  /** Recognised format, but the data is truncated or corrupt and cannot be decoded. */
  | 'corrupt';

/**
 * The input could not be decoded as a photo. The message is written for people (it may end up in
 * an API response); the underlying decoder error, if any, is kept in `cause` for logs only.
 */
export class NotAnImageError extends Error {
  override readonly name = 'NotAnImageError';
  readonly reason: NotAnImageReason;

  constructor(reason: NotAnImageReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
