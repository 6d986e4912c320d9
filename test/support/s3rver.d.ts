// s3rver ships no types; these are the few parts the S3 test server (s3-server.ts) uses.
declare module 's3rver' {
  /** A real S3 protocol server over a directory (https://github.com/jamhall/s3rver). */
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string; configureBuckets?: { name: string; configs?: string[] }[] });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
