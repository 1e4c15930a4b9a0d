import { FileStore } from '@tus/file-store';

/**
 * Counts, at the server, the bytes each tus upload's PATCH bodies brought into the upload store
 * (`@tus/file-store`, the default store, which the in-process test service writes through), by
 * upload id. What a client sent twice is counted twice: a resumed upload whose count is its size
 * sent nothing again. Counts every service of this process from the call until `stop()`.
 */
export function countUploadedBytes(): { bytesOf(uploadId: string): number; total(): number; stop(): void } {
  const counts = new Map<string, number>();
  const write = FileStore.prototype.write;
  FileStore.prototype.write = function counted(this: FileStore, readable, id, offset) {
    // Listening before tus's pipeline attaches, in the same tick: every chunk is seen by both.
    readable.on('data', (chunk: Buffer) => counts.set(id, (counts.get(id) ?? 0) + chunk.length));
    return write.call(this, readable, id, offset);
  };
  return {
    bytesOf: (uploadId) => counts.get(uploadId) ?? 0,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    stop() {
      FileStore.prototype.write = write;
    },
  };
}
