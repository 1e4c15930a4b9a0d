import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('FILE_STORE and the S3 variables', () => {
  it('keeps files under DATA_DIR/files when FILE_STORE is unset', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'filesystem' });
  });

  it('reads s3://bucket/prefix with the endpoint, region, path style and credentials', () => {
    const config = loadConfig({
      FILE_STORE: 's3://photobook/files/eu',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_REGION: 'eu-central-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.fileStore).toEqual({
      kind: 's3',
      bucket: 'photobook',
      prefix: 'files/eu',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret' },
    });
    // A bucket's root, AWS S3, and the SDK's own credentials.
    expect(loadConfig({ FILE_STORE: 's3://photobook' }).fileStore).toEqual({
      kind: 's3',
      bucket: 'photobook',
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it.each([
    ['FILE_STORE', 'photobook/files'],
    ['FILE_STORE', 's3://'],
    ['FILE_STORE', 's3://Upper_Case/files'],
    ['FILE_STORE', 's3://photobook/../escape'],
    ['FILE_STORE', 's3://photobook//files'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_REGION', 'EU Central'],
    ['S3_FORCE_PATH_STYLE', 'sometimes'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('refuses one S3 credential without the other, naming the missing one and never echoing the secret', () => {
    expect(() => loadConfig({ FILE_STORE: 's3://photobook', S3_ACCESS_KEY_ID: 'key-id' })).toThrow(
      /S3_SECRET_ACCESS_KEY is not set/,
    );
    let message = '';
    try {
      loadConfig({ FILE_STORE: 's3://photobook', S3_SECRET_ACCESS_KEY: 'do-not-print-me' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/S3_ACCESS_KEY_ID is not set/);
    expect(message).not.toContain('do-not-print-me');
  });
});
