// @20minutes/s3rver ships no types: what the S3 test server uses of it.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  export default class S3rver {
    constructor(options: Record<string, unknown>);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
