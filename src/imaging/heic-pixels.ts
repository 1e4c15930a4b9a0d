/** The pixels of a decoded HEIC's primary image, upright by the container's own transformations (irot, imir). */
export interface HeicPixels {
  width: number;
  height: number;
  /** 3 (RGB: the native decoder) or 4 (RGBA: the WebAssembly one). */
  channels: 3 | 4;
  /** width x height x channels bytes. */
  data: Buffer;
}
