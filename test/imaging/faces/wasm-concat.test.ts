import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoopConcat, type KernelRegistry } from '../../../src/imaging/faces/wasm-concat';

interface Tensor {
  dataSync(): Float32Array | Int32Array;
  dispose(): void;
}
interface TensorFlow extends KernelRegistry {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  tensor(values: number[], shape: number[], dtype: 'float32' | 'int32'): Tensor;
  concat(tensors: Tensor[], axis: number): Tensor;
}

const require = createRequire(import.meta.url);

/** Values 0..n-1 shifted and scaled per input, so a misplaced copy shows. */
function values(n: number, input: number): number[] {
  return Array.from({ length: n }, (_, i) => input * 1000 + i * 0.37);
}

describe('the loop Concat kernel of the WebAssembly backend', () => {
  it('gives the backend kernel’s values for every axis, dtype and row length', async () => {
    const tf = require('@tensorflow/tfjs') as TensorFlow;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };
    wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`);
    expect(await tf.setBackend('wasm')).toBe(true);
    await tf.ready();
    const cases: { shapes: number[][]; axis: number; dtype: 'float32' | 'int32' }[] = [
      // face-api's mean colour: three one-channel tensors along the channels.
      {
        shapes: [
          [1, 7, 5, 1],
          [1, 7, 5, 1],
          [1, 7, 5, 1],
        ],
        axis: 3,
        dtype: 'float32',
      },
      {
        shapes: [
          [1, 7, 5, 2],
          [1, 7, 5, 3],
        ],
        axis: -1,
        dtype: 'int32',
      },
      // padding to a square, on either side: rows longer than the loop's
      {
        shapes: [
          [1, 4, 6, 3],
          [1, 4, 2, 3],
        ],
        axis: 2,
        dtype: 'float32',
      },
      {
        shapes: [
          [1, 4, 6, 3],
          [1, 3, 6, 3],
        ],
        axis: 1,
        dtype: 'float32',
      },
      {
        shapes: [
          [2, 40],
          [2, 3],
        ],
        axis: 1,
        dtype: 'float32',
      },
    ];
    const run = () =>
      cases.map(({ shapes, axis, dtype }) => {
        const inputs = shapes.map((shape, i) =>
          tf.tensor(
            values(
              shape.reduce((n, d) => n * d, 1),
              i,
            ).map((v) => (dtype === 'int32' ? Math.round(v) : v)),
            shape,
            dtype,
          ),
        );
        const out = tf.concat(inputs, axis);
        const copied = Array.from(out.dataSync());
        for (const t of [...inputs, out]) t.dispose();
        return copied;
      });
    const before = run();
    useLoopConcat(tf);
    useLoopConcat(tf); // once per process, however often asked
    expect(run()).toEqual(before);
  });
});
