/** heic-decode ships no types: its one call, as its README documents it. */
declare module 'heic-decode' {
  function decode(input: { buffer: Uint8Array }): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
  export default decode;
}
