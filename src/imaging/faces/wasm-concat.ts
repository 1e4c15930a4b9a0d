/**
 * TensorFlow.js's WebAssembly backend concatenates by copying, for every index before the axis, one
 * sub-array of each input (a typed-array view made and set per row). face-api subtracts the
 * network's mean colour by concatenating three one-channel tensors of the photo's size along the
 * channel axis: at 512 x 512 that is 786,432 views made and collected per photo, which in a
 * campaign's profile was a seventh of the service's CPU and much of its garbage collection
 * (docs/performance.md). This kernel copies the same values in the same order with a plain loop
 * when the inputs' rows are short; anything else goes to the backend's own kernel.
 */

/** The parts of a tensor a kernel sees. */
interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

/** The parts of the WebAssembly backend this kernel uses (its `makeOutput` and `typedArrayFromHeap`). */
interface WasmBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(tensor: TensorInfo): { [index: number]: number; length: number };
}

interface ConcatArgs {
  inputs: TensorInfo[];
  backend: WasmBackend;
  attrs: { axis: number | number[] };
}

interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: (args: ConcatArgs) => TensorInfo;
  setupFunc?: unknown;
  disposeFunc?: unknown;
}

/** The parts of TensorFlow.js's kernel registry this file uses. */
export interface KernelRegistry {
  getKernel(kernelName: string, backendName: string): KernelConfig | undefined;
  unregisterKernel(kernelName: string, backendName: string): void;
  registerKernel(config: KernelConfig): void;
}

/** Rows at most this long are copied value by value; longer ones are worth a view and a `set`. */
const SHORT_ROW = 16;

const size = (shape: number[]) => shape.reduce((n, d) => n * d, 1);

/** Replaces the WebAssembly backend's Concat kernel with one that copies short rows in a loop (once per process). */
export function useLoopConcat(tf: KernelRegistry): void {
  const original = tf.getKernel('Concat', 'wasm');
  if (!original) throw new Error('the TensorFlow.js WebAssembly backend has no Concat kernel');
  if ((original.kernelFunc as { loopConcat?: true }).loopConcat) return;
  const kernelFunc = (args: ConcatArgs): TensorInfo => {
    const { inputs, backend } = args;
    const rank = inputs[0]!.shape.length;
    const axis = Array.isArray(args.attrs.axis) ? args.attrs.axis[0]! : args.attrs.axis;
    const at = axis < 0 ? axis + rank : axis;
    const first = inputs[0]!;
    const rows = size(first.shape.slice(0, at));
    const plain =
      inputs.length > 1 &&
      inputs.every(
        (t) =>
          (t.dtype === 'float32' || t.dtype === 'int32') &&
          t.dtype === first.dtype &&
          t.shape.length === rank &&
          t.shape.every((d, j) => j === at || d === first.shape[j]) &&
          size(t.shape) > 0 &&
          size(t.shape.slice(at)) <= SHORT_ROW,
      );
    if (!plain) return original.kernelFunc(args);
    const widths = inputs.map((t) => size(t.shape.slice(at)));
    const outShape = [...first.shape];
    outShape[at] = inputs.reduce((n, t) => n + t.shape[at]!, 0);
    const out = backend.makeOutput(outShape, first.dtype);
    const target = backend.typedArrayFromHeap(out);
    const sources = inputs.map((t) => backend.typedArrayFromHeap(t));
    let o = 0;
    for (let row = 0; row < rows; row++) {
      for (let i = 0; i < sources.length; i++) {
        const source = sources[i]!;
        const width = widths[i]!;
        for (let k = row * width, end = k + width; k < end; k++) target[o++] = source[k]!;
      }
    }
    return out;
  };
  tf.unregisterKernel('Concat', 'wasm');
  tf.registerKernel({ ...original, kernelFunc: Object.assign(kernelFunc, { loopConcat: true as const }) });
}
