/** What the HEIC decoder pool sends its worker threads (heic-decode-worker.ts): the file's bytes, transferred. */
export interface HeicDecodeRequest {
  id: number;
  bytes: ArrayBuffer;
}

/** A worker's answer: the RGBA pixels (transferred), or why libheif could not decode the file. */
export type HeicDecodeReply =
  | { id: number; width: number; height: number; data: ArrayBuffer; byteOffset: number; byteLength: number }
  | { id: number; error: string };
