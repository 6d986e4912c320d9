import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import os from 'node:os';
import { ConfigError, DEFAULT_XML_NAMESPACE, loadConfig, parseDatabaseUrl, withApplicationName } from '../src/config.ts';

describe('configuration from the environment', () => {
  test('the signing certificate: none by default; APAS_SIGNING_P12 made absolute, its passphrase kept exactly as given', () => {
    assert.deepEqual(loadConfig({}).signing, { p12File: null, passphrase: '' });
    assert.deepEqual(loadConfig({ APAS_SIGNING_P12: ' certs/seal.p12 ', APAS_SIGNING_P12_PASSPHRASE: ' two words ' }).signing, {
      p12File: path.resolve('certs', 'seal.p12'), passphrase: ' two words ',
    });
  });

  test('defaults: loopback, port 8080, SQLite under ./data, the version-1 namespace', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8080);
    assert.deepEqual(c.database, { kind: 'sqlite', file: path.resolve('data', 'apas.db') });
    assert.equal(c.publicUrl, 'http://localhost:8080');
    assert.equal(c.xmlNamespace, DEFAULT_XML_NAMESPACE);
    assert.equal(c.bodyLimitBytes, 1024 * 1024);
    assert.equal(c.maxNumbersPerRequest, 1000);
    assert.deepEqual(c.rateLimit, { max: 1200, windowSeconds: 60, store: 'memory' });
    assert.equal(c.trustProxy, false);
    assert.deepEqual(c.signIn, { windowSeconds: 900, lockUserAfter: 10, lockAddressAfter: 50, accountSlowAfter: 5 });
    assert.equal(c.blobStore, 'local');
    assert.equal(c.blobDir, path.resolve('data', 'blobs'));
    assert.equal(c.maxUploadBytes, 104857600);
    assert.deepEqual(c.oauth, { tokenTtlSeconds: 3600 });
    assert.equal(c.eventRetentionDays, 30);
    assert.deepEqual(c.webhooks, { allowInsecure: false, timeoutMs: 10_000, intervalMs: 1000, disableAfterHours: 72, logRetentionDays: 30 });
  });

  test('prepared statements on PostgreSQL: on unless APAS_DB_PREPARED_STATEMENTS is false', () => {
    assert.equal(loadConfig({}).db.preparedStatements, true);
    assert.equal(loadConfig({ APAS_DB_PREPARED_STATEMENTS: 'false' }).db.preparedStatements, false);
    assert.equal(loadConfig({ APAS_DB_PREPARED_STATEMENTS: '0' }).db.preparedStatements, false);
    assert.equal(loadConfig({ APAS_DB_PREPARED_STATEMENTS: 'TRUE' }).db.preparedStatements, true);
  });

  test('webhook settings', () => {
    const c = loadConfig({
      APAS_WEBHOOK_ALLOW_INSECURE: 'true', APAS_WEBHOOK_TIMEOUT_MS: '2500', APAS_WEBHOOK_INTERVAL_MS: '200', APAS_WEBHOOK_DISABLE_AFTER_HOURS: '24', APAS_WEBHOOK_LOG_RETENTION_DAYS: '7',
    });
    assert.deepEqual(c.webhooks, { allowInsecure: true, timeoutMs: 2500, intervalMs: 200, disableAfterHours: 24, logRetentionDays: 7 });
    assert.throws(() => loadConfig({ APAS_WEBHOOK_LOG_RETENTION_DAYS: '0' }), /APAS_WEBHOOK_LOG_RETENTION_DAYS must be between 1 and 3650/);
  });

  test('document claims: five minutes unless APAS_DOCUMENT_LEASE_MS says otherwise, within its bounds', () => {
    assert.equal(loadConfig({}).documentLeaseMs, 300_000);
    assert.equal(loadConfig({ APAS_DOCUMENT_LEASE_MS: '3000' }).documentLeaseMs, 3000);
    assert.throws(() => loadConfig({ APAS_DOCUMENT_LEASE_MS: '999' }), /APAS_DOCUMENT_LEASE_MS must be between 1000 and 3600000/);
  });

  test('mail: off without APAS_SMTP_URL; smtp(s) URLs and a sender address are checked', () => {
    assert.deepEqual(loadConfig({}).mail, { smtpUrl: null, from: 'apas@localhost', intervalMs: 5000, retentionDays: 30 });
    const c = loadConfig({ APAS_SMTP_URL: 'smtps://u:p@mail.example.org:465', APAS_MAIL_FROM: 'APAS <noreply@example.org>', APAS_MAIL_INTERVAL_MS: '250', APAS_MAIL_RETENTION_DAYS: '7' });
    assert.deepEqual(c.mail, { smtpUrl: 'smtps://u:p@mail.example.org:465', from: 'APAS <noreply@example.org>', intervalMs: 250, retentionDays: 7 });
    assert.throws(() => loadConfig({ APAS_MAIL_RETENTION_DAYS: '0' }), /APAS_MAIL_RETENTION_DAYS must be between 1 and 3650/);
    assert.throws(() => loadConfig({ APAS_SMTP_URL: 'http://mail.example.org' }), /APAS_SMTP_URL must be an smtp/);
    assert.throws(() => loadConfig({ APAS_SMTP_URL: 'not a url' }), /APAS_SMTP_URL/);
    assert.throws(() => loadConfig({ APAS_MAIL_FROM: 'no address' }), /APAS_MAIL_FROM must be an e-mail address/);
  });

  test('uploads: local blobs next to the SQLite file; the database on PostgreSQL; both can be chosen', () => {
    assert.equal(loadConfig({ DATABASE_URL: '/srv/apas/apas.db' }).blobDir, '/srv/apas/blobs');
    assert.equal(loadConfig({ DATABASE_URL: ':memory:' }).blobDir, path.resolve('data', 'blobs'));
    const pg = loadConfig({ DATABASE_URL: 'postgres://h/db' });
    assert.equal(pg.blobStore, 'database');
    assert.equal(pg.blobDir, path.resolve('data', 'blobs'));
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://h/db', APAS_BLOB_STORE: 'local' }).blobStore, 'local');
    assert.equal(loadConfig({ APAS_BLOB_STORE: 'database' }).blobStore, 'database');
    assert.equal(loadConfig({ APAS_BLOB_STORE: 'database', APAS_S3_BUCKET: 'ignored' }).s3, null);
  });

  test('APAS_BLOB_STORE=s3: the bucket, a prefix ending in /, us-east-1 and the SDK\'s credentials unless given', () => {
    assert.deepEqual(loadConfig({ APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'apas-files' }).s3, {
      endpoint: null, bucket: 'apas-files', region: 'us-east-1', prefix: '', forcePathStyle: false, credentials: null,
    });
    assert.deepEqual(loadConfig({
      APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'files', APAS_S3_ENDPOINT: 'http://minio:9000/', APAS_S3_REGION: 'eu-central-1', APAS_S3_PREFIX: '/agency/apas/',
      APAS_S3_FORCE_PATH_STYLE: 'true', APAS_S3_ACCESS_KEY_ID: 'AKIA1', APAS_S3_SECRET_ACCESS_KEY: ' s3cret ',
    }).s3, {
      endpoint: 'http://minio:9000', bucket: 'files', region: 'eu-central-1', prefix: 'agency/apas/', forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: ' s3cret ' },
    });
  });

  test('APAS_TRUST_PROXY: off, a number of proxies, or their addresses; `true` is one proxy', () => {
    const trust = (value: string) => loadConfig({ APAS_TRUST_PROXY: value }).trustProxy;
    assert.equal(trust(''), false);
    assert.equal(trust('false'), false);
    assert.equal(trust('0'), false);
    assert.equal(trust('true'), 1);
    assert.equal(trust('2'), 2);
    assert.deepEqual(trust('10.0.0.0/8, 127.0.0.1 ,fd00::/8'), ['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    assert.deepEqual(trust('loopback,uniquelocal'), ['loopback', 'uniquelocal']);
  });

  test('every setting is read', () => {
    const c = loadConfig({
      APAS_HOST: '0.0.0.0', APAS_PORT: '9000', DATABASE_URL: 'postgres://u:p@db:5432/apas', APAS_PUBLIC_URL: 'https://apas.example.org/',
      APAS_XML_NAMESPACE: 'urn:example:apas', APAS_BODY_LIMIT_BYTES: '2048', APAS_LOG_LEVEL: 'warn', APAS_MAX_NUMBERS_PER_REQUEST: '5',
      APAS_REQUEST_TIMEOUT_MS: '1000', APAS_RATE_LIMIT_MAX: '7', APAS_RATE_LIMIT_WINDOW_SECONDS: '10', APAS_PG_POOL_SIZE: '3',
      APAS_TRUST_PROXY: 'true', APAS_SIGNIN_WINDOW_SECONDS: '60', APAS_SIGNIN_LOCK_USER_AFTER: '5', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '20',
      APAS_BLOB_STORE: 'local', APAS_BLOB_DIR: 'files/blobs', APAS_MAX_UPLOAD_BYTES: '5000', APAS_OAUTH_TOKEN_TTL_SECONDS: '600',
      APAS_EVENT_RETENTION_DAYS: '7',
    });
    assert.deepEqual(c.oauth, { tokenTtlSeconds: 600 });
    assert.equal(c.eventRetentionDays, 7);
    assert.equal(c.blobStore, 'local');
    assert.equal(c.blobDir, path.resolve('files', 'blobs'));
    assert.equal(c.maxUploadBytes, 5000);
    assert.equal(c.trustProxy, 1, '`true` means one proxy in front, never the client-written left-most address');
    assert.deepEqual(c.signIn, { windowSeconds: 60, lockUserAfter: 5, lockAddressAfter: 20, accountSlowAfter: 5 });
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.port, 9000);
    assert.deepEqual(c.database, { kind: 'postgres', url: 'postgres://u:p@db:5432/apas' });
    assert.equal(c.publicUrl, 'https://apas.example.org');
    assert.equal(c.xmlNamespace, 'urn:example:apas');
    assert.equal(c.bodyLimitBytes, 2048);
    assert.equal(c.logLevel, 'warn');
    assert.equal(c.maxNumbersPerRequest, 5);
    assert.equal(c.requestTimeoutMs, 1000);
    assert.deepEqual(c.rateLimit, { max: 7, windowSeconds: 10, store: 'database' });
    assert.equal(c.pgPoolSize, 3);
  });

  const bad: [string, Record<string, string>, RegExp][] = [
    ['port not a number', { APAS_PORT: 'http' }, /APAS_PORT must be a whole number/],
    ['port out of range', { APAS_PORT: '70000' }, /APAS_PORT must be between 0 and 65535/],
    ['host with a scheme', { APAS_HOST: 'http://0.0.0.0' }, /APAS_HOST must be an IP address/],
    ['host with a port', { APAS_HOST: '127.0.0.1:8080' }, /APAS_HOST must be an IP address/],
    ['unknown log level', { APAS_LOG_LEVEL: 'loud' }, /APAS_LOG_LEVEL must be one of/],
    ['public URL not absolute', { APAS_PUBLIC_URL: 'apas.example.org' }, /APAS_PUBLIC_URL must be an absolute URL/],
    ['public URL not http', { APAS_PUBLIC_URL: 'ftp://apas.example.org' }, /APAS_PUBLIC_URL must be an http\(s\) URL/],
    ['namespace with a space', { APAS_XML_NAMESPACE: 'urn:a b' }, /APAS_XML_NAMESPACE must be an absolute URI/],
    ['body limit too small', { APAS_BODY_LIMIT_BYTES: '10' }, /APAS_BODY_LIMIT_BYTES must be between/],
    ['unknown database scheme', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a SQLite file path/],
    ['rate limit store', { APAS_RATE_LIMIT_STORE: 'redis' }, /APAS_RATE_LIMIT_STORE must be "memory" or "database"/],
    ['trust proxy word', { APAS_TRUST_PROXY: 'yes' }, /APAS_TRUST_PROXY must be false, the number of proxies in front of apas \(such as 1\), or their addresses/],
    ['trust proxy prefix', { APAS_TRUST_PROXY: '10.0.0.0/33' }, /APAS_TRUST_PROXY: "10.0.0.0\/33" is not an IP address/],
    ['trust proxy address', { APAS_TRUST_PROXY: '10.0.0.1, 300.1.1.1' }, /APAS_TRUST_PROXY: "300.1.1.1" is not an IP address/],
    ['trust proxy hops', { APAS_TRUST_PROXY: '100' }, /APAS_TRUST_PROXY must be between 1 and 10 proxies/],
    ['sign-in lock threshold', { APAS_SIGNIN_LOCK_USER_AFTER: '0' }, /APAS_SIGNIN_LOCK_USER_AFTER must be between 1 and/],
    ['blob store', { APAS_BLOB_STORE: 'gcs' }, /APAS_BLOB_STORE must be "local" or "database" or "s3"/],
    ['s3 without a bucket', { APAS_BLOB_STORE: 's3' }, /APAS_BLOB_STORE=s3 needs APAS_S3_BUCKET/],
    ['s3 bucket name', { APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'My_Bucket' }, /APAS_S3_BUCKET must be a bucket name of 3 to 63/],
    ['s3 endpoint', { APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'files', APAS_S3_ENDPOINT: 'minio:9000' }, /APAS_S3_ENDPOINT must be an http\(s\) URL/],
    ['s3 half a key', { APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'files', APAS_S3_ACCESS_KEY_ID: 'AKIA' }, /Set both APAS_S3_ACCESS_KEY_ID and APAS_S3_SECRET_ACCESS_KEY, or neither/],
    ['s3 prefix', { APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'files', APAS_S3_PREFIX: 'a b' }, /APAS_S3_PREFIX must be at most 200/],
    ['s3 path style', { APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'files', APAS_S3_FORCE_PATH_STYLE: 'yes' }, /APAS_S3_FORCE_PATH_STYLE must be true or false/],
    ['upload limit', { APAS_MAX_UPLOAD_BYTES: '0' }, /APAS_MAX_UPLOAD_BYTES must be between 1 and/],
    ['token lifetime too short', { APAS_OAUTH_TOKEN_TTL_SECONDS: '59' }, /APAS_OAUTH_TOKEN_TTL_SECONDS must be between 60 and 86400/],
    ['prepared statements flag', { APAS_DB_PREPARED_STATEMENTS: 'off' }, /APAS_DB_PREPARED_STATEMENTS must be true or false/],
    ['webhook insecure flag', { APAS_WEBHOOK_ALLOW_INSECURE: 'sometimes' }, /APAS_WEBHOOK_ALLOW_INSECURE must be true or false/],
    ['webhook timeout', { APAS_WEBHOOK_TIMEOUT_MS: '10' }, /APAS_WEBHOOK_TIMEOUT_MS must be between 100 and 120000/],
    ['token lifetime too long', { APAS_OAUTH_TOKEN_TTL_SECONDS: '86401' }, /APAS_OAUTH_TOKEN_TTL_SECONDS must be between 60 and 86400/],
  ];
  for (const [name, env, message] of bad) {
    test(`refuses ${name} with a message naming the variable`, () => {
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && message.test(e.message));
    });
  }

  test('DATABASE_URL forms', () => {
    assert.deepEqual(parseDatabaseUrl('sqlite:db/x.db', '/srv'), { kind: 'sqlite', file: '/srv/db/x.db' });
    assert.deepEqual(parseDatabaseUrl('/var/lib/apas.db', '/srv'), { kind: 'sqlite', file: '/var/lib/apas.db' });
    assert.deepEqual(parseDatabaseUrl(':memory:', '/srv'), { kind: 'sqlite', file: ':memory:' });
    assert.deepEqual(parseDatabaseUrl('postgresql://h/db'), { kind: 'postgres', url: 'postgresql://h/db' });
  });

  test('APAS_METRICS_PORT/HOST: none by default; a port of its own, on loopback unless a host is given', () => {
    assert.equal(loadConfig({}).metrics, null);
    assert.deepEqual(loadConfig({ APAS_METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ APAS_METRICS_PORT: '9464', APAS_METRICS_HOST: '10.0.0.5' }).metrics, { port: 9464, host: '10.0.0.5' });
    assert.throws(() => loadConfig({ APAS_METRICS_PORT: '8080' }), /APAS_METRICS_PORT must differ from APAS_PORT \(8080\)/);
    assert.throws(() => loadConfig({ APAS_METRICS_PORT: '0' }), /APAS_METRICS_PORT must be between 1 and 65535/);
    assert.throws(() => loadConfig({ APAS_METRICS_PORT: '9464', APAS_METRICS_HOST: 'not a host' }), /APAS_METRICS_HOST must be an IP address/);
  });

  test('APAS_INSTANCE_NAME: apas@host:port by default; printable ASCII up to 63 characters; the PostgreSQL application_name', () => {
    assert.equal(loadConfig({ APAS_PORT: '8081' }).instanceName, `apas@${os.hostname()}:8081`.slice(0, 63));
    assert.equal(loadConfig({ APAS_INSTANCE_NAME: ' web-2 ' }).instanceName, 'web-2');
    assert.throws(() => loadConfig({ APAS_INSTANCE_NAME: 'x'.repeat(64) }), ConfigError);
    assert.throws(() => loadConfig({ APAS_INSTANCE_NAME: 'wéb' }), /APAS_INSTANCE_NAME must be 1-63 printable ASCII/);
    assert.deepEqual(withApplicationName({ kind: 'postgres', url: 'postgres://u@h/db?sslmode=require' }, 'web 2'), {
      kind: 'postgres', url: 'postgres://u@h/db?sslmode=require&application_name=web+2',
    });
    const own = { kind: 'postgres', url: 'postgres://u@h/db?application_name=mine' } as const;
    assert.equal(withApplicationName(own, 'web-2'), own);
    const file = { kind: 'sqlite', file: '/srv/apas.db' } as const;
    assert.equal(withApplicationName(file, 'web-2'), file);
  });
});
