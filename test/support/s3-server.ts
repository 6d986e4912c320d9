import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Config } from '../../src/config.ts';

/** A running s3rver with one bucket, the settings apas reaches it with, and a client of its own for the tests. */
export interface S3Server {
  config: S3Config;
  /** The APAS_S3_* variables of `config`, for loadConfig and child processes. */
  env: Record<string, string>;
  client: S3Client;
  /** The object keys in the bucket (all of them, whatever the prefix), sorted. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts s3rver on a free loopback port over a temporary directory, with the bucket `bucket`; no network beyond loopback. */
export async function startS3Server(bucket = 'apas-files', prefix = ''): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config: S3Config = {
    endpoint, bucket, region: 'us-east-1', prefix, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
  const env = {
    APAS_BLOB_STORE: 's3', APAS_S3_ENDPOINT: endpoint, APAS_S3_BUCKET: bucket, APAS_S3_PREFIX: prefix, APAS_S3_FORCE_PATH_STYLE: 'true',
    APAS_S3_ACCESS_KEY_ID: 'S3RVER', APAS_S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: config.credentials! });
  return {
    config, env, client,
    async keys() {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
