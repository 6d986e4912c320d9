import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Which database the service runs on, parsed from DATABASE_URL. */
export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The whole runtime configuration, read once from the environment at start. */
export interface Config {
  host: string;
  port: number;
  /** APAS_METRICS_PORT/HOST: a second listener for /metrics and the health probes, or null (all on `port`). */
  metrics: { port: number; host: string } | null;
  /** APAS_INSTANCE_NAME: this instance's name, sent to PostgreSQL as `application_name` (pg_stat_activity). */
  instanceName: string;
  database: DatabaseConfig;
  publicUrl: string;
  xmlNamespace: string;
  bodyLimitBytes: number;
  logLevel: string;
  maxNumbersPerRequest: number;
  requestTimeoutMs: number;
  rateLimit: { max: number; windowSeconds: number; store: 'memory' | 'database' };
  pgPoolSize: number;
  /**
   * APAS_HEAP_GROWTH_PERCENT: how far `apas serve` lets V8's old generation grow past the live heap before the next
   * full collection (40: to 1.4 times it); 0 leaves V8's own growth (up to 4 times on a large machine).
   */
  heapGrowthPercent: number;
  /**
   * Bounds on the database: connecting (and waiting for a pooled connection), one statement, and start-up attempts;
   * `preparedStatements` false runs every PostgreSQL statement unnamed (for a pooler in transaction mode).
   */
  db: { connectTimeoutMs: number; statementTimeoutMs: number; startAttempts: number; preparedStatements: boolean };
  /**
   * Failed sign-ins: the window, the failures per user name and per client address that lock it, and the failures of
   * one account's web sign-ins from unknown browsers after which they are throttled.
   */
  signIn: { windowSeconds: number; lockUserAfter: number; lockAddressAfter: number; accountSlowAfter: number };
  /**
   * Which X-Forwarded-For entries to believe (behind a reverse proxy), so that per-address limits see the client's
   * address: false (none), the number of proxies in front (hops), or the proxies' addresses and ranges.
   */
  trustProxy: TrustProxy;
  /** Where uploaded files live: a local directory, the database (for several instances), or an S3-compatible bucket. */
  blobStore: 'local' | 'database' | 's3';
  /** The directory of the local blob store (absolute). */
  blobDir: string;
  /** The most bytes any upload may have, whatever its attachment definition allows. */
  maxUploadBytes: number;
  /** The bucket of APAS_BLOB_STORE=s3 (APAS_S3_*); null with the other stores. */
  s3: S3Config | null;
  /** The web application: how long its sessions last, and the time zone its pages show times in. */
  web: { sessionIdleMinutes: number; sessionMaxHours: number; timeZone: string };
  /** OAuth 2.0 client credentials: how long an issued access token lives. */
  oauth: { tokenTtlSeconds: number };
  /** How long the change feed keeps events (days); older events that every consumer inside the service has read are deleted. */
  eventRetentionDays: number;
  /**
   * Webhooks: plain http and private targets allowed (tests, closed networks), an attempt's timeout, the worker's
   * interval, when to disable, and how long the delivery log keeps delivered and failed deliveries (days).
   */
  webhooks: { allowInsecure: boolean; timeoutMs: number; intervalMs: number; disableAfterHours: number; logRetentionDays: number };
  /**
   * Outgoing e-mail: the SMTP server (null: mail is off), the sender address, how often the queue is drained, and how
   * many days sent and given-up messages are kept.
   */
  mail: { smtpUrl: string | null; from: string; intervalMs: number; retentionDays: number };
  /** How often each instance fires the deadlines whose time has come (ms; at most 30 s, so a deadline fires within a minute). */
  deadlineIntervalMs: number;
  /** How long a claim on a document request lasts (ms): a request whose instance died while rendering runs again after it. */
  documentLeaseMs: number;
  /** How long an instance's claim on a connection call lasts while it calls (APAS_CONNECTION_LEASE_MS). */
  connectionLeaseMs: number;
  /** Key encryption keys of secrets at rest: APAS_SECRET_KEYS (key lines) or APAS_SECRET_KEY_FILE (absolute path); null when unset. */
  secretKeys: { keys: string | null; file: string | null };
  /**
   * The PKCS#12 file (key and certificate) that seals signed PDFs, APAS_SIGNING_P12 (absolute; null when unset: the
   * demo's file beside the database, if there is one), and its passphrase, APAS_SIGNING_P12_PASSPHRASE ('' when unset).
   */
  signing: { p12File: string | null; passphrase: string };
}

/**
 * An S3-compatible bucket for uploaded files: the endpoint (null: AWS S3 of `region`), the bucket, the key prefix
 * ('' or ending in '/'), path-style addressing (MinIO, Ceph), and the access key (null: the AWS SDK's default chain).
 */
export interface S3Config {
  endpoint: string | null;
  bucket: string;
  region: string;
  prefix: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/**
 * Trusted proxies: false, a hop count (the address the n-th proxy from apas saw is the client's), or addresses and CIDR
 * ranges (and proxy-addr's names loopback, linklocal, uniquelocal), which Fastify's `trustProxy` takes as they are.
 */
export type TrustProxy = false | number | string[];

/** The XML namespace of the version-1 schema family used by integrations written for the commercial system. */
export const DEFAULT_XML_NAMESPACE = 'http://service.powerclerk.com/api/v1/';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Thrown when the environment holds an invalid setting; the message names the variable. */
export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/**
 * The database with `application_name` set to `name` (PostgreSQL shows it in pg_stat_activity and its logs), unless
 * DATABASE_URL names one itself; SQLite is returned as it is.
 */
export function withApplicationName(database: DatabaseConfig, name: string): DatabaseConfig {
  if (database.kind !== 'postgres') return database;
  const url = new URL(database.url);
  if (url.searchParams.has('application_name')) return database;
  url.searchParams.set('application_name', name);
  return { kind: 'postgres', url: url.toString() };
}

/** Parses DATABASE_URL: `postgres://…`/`postgresql://…`, or a SQLite file path (optionally `sqlite:` prefixed). */
export function parseDatabaseUrl(raw: string | undefined, cwd = process.cwd()): DatabaseConfig {
  const value = (raw ?? '').trim();
  if (value === '') return { kind: 'sqlite', file: path.resolve(cwd, 'data', 'apas.db') };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('DATABASE_URL must be a SQLite file path, sqlite:PATH, or a postgres:// URL');
  }
  const file = value.replace(/^sqlite:/i, '');
  if (file === ':memory:') return { kind: 'sqlite', file };
  return { kind: 'sqlite', file: path.resolve(cwd, file) };
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 10;

/** True for an IPv4 or IPv6 address, optionally with a CIDR prefix length that fits it. */
function isAddressOrRange(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * APAS_TRUST_PROXY: `false`/`0`/unset (the socket's address is the client's), a number of proxies, or a comma-separated
 * list of the proxies' addresses and ranges. `true` means one proxy: the address it appended, never the left-most
 * entry, which the client writes.
 */
function trustProxySetting(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.APAS_TRUST_PROXY ?? '').trim();
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false' || lower === '0') return false;
  if (lower === 'true') return 1;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_PROXY_HOPS) throw new ConfigError(`APAS_TRUST_PROXY must be between 1 and ${MAX_PROXY_HOPS} proxies, got ${hops}`);
    return hops;
  }
  const entries = raw.split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (!entries.some((e) => /[.:]/.test(e) || PROXY_NAMES.has(e))) {
    throw new ConfigError(`APAS_TRUST_PROXY must be false, the number of proxies in front of apas (such as 1), or their addresses (such as 10.0.0.0/8,127.0.0.1), got "${raw}"`);
  }
  for (const entry of entries) {
    if (!PROXY_NAMES.has(entry) && !isAddressOrRange(entry)) {
      throw new ConfigError(`APAS_TRUST_PROXY: "${entry}" is not an IP address, a CIDR range (such as 10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
    }
  }
  return entries;
}

function urlSetting(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = (env[name] ?? '').trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${raw}"`);
  }
  if (!/^https?:$/.test(parsed.protocol)) {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  return raw.replace(/\/+$/, '');
}

function namespaceSetting(env: NodeJS.ProcessEnv): string {
  const raw = (env.APAS_XML_NAMESPACE ?? '').trim() || DEFAULT_XML_NAMESPACE;
  // A namespace is an opaque URI compared character by character, so it is kept exactly as given.
  if (!/^[a-z][a-z0-9+.-]*:[^\s"'<>&]+$/i.test(raw)) {
    throw new ConfigError(`APAS_XML_NAMESPACE must be an absolute URI without spaces or quotes, got "${raw}"`);
  }
  return raw;
}

/** The default local blob directory: `blobs` next to the SQLite file, else `./data/blobs`. */
export function defaultBlobDir(database: DatabaseConfig, cwd = process.cwd()): string {
  if (database.kind === 'sqlite' && database.file !== ':memory:') return path.join(path.dirname(database.file), 'blobs');
  return path.resolve(cwd, 'data', 'blobs');
}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be ${allowed.map((a) => `"${a}"`).join(' or ')}, got "${raw}"`);
  return raw as T;
}

/** APAS_HOST (or `name`): an IPv4 or IPv6 address, or a host name to resolve; 127.0.0.1 when unset. */
function hostSetting(env: NodeJS.ProcessEnv, name = 'APAS_HOST'): string {
  const host = (env.APAS_HOST ?? '').trim() || '127.0.0.1';
  if (net.isIP(host) === 0 && !/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(host)) {
    throw new ConfigError(`${name} must be an IP address (such as 0.0.0.0 or ::) or a host name, got "${host}"`);
  }
  return host;
}

function timeZoneSetting(env: NodeJS.ProcessEnv): string {
  const raw = (env.APAS_TIME_ZONE ?? '').trim() || 'UTC';
  try {
    return new Intl.DateTimeFormat('en', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError(`APAS_TIME_ZONE must be an IANA time zone such as Europe/Berlin or America/Denver, got "${raw}"`);
  }
}

/** APAS_SMTP_URL: an smtp:// or smtps:// URL, or null (unset) for no mail. */
function smtpSetting(env: NodeJS.ProcessEnv): string | null {
  const raw = (env.APAS_SMTP_URL ?? '').trim();
  if (raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('APAS_SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (!/^smtps?:$/.test(parsed.protocol) || parsed.hostname === '') throw new ConfigError('APAS_SMTP_URL must be an smtp:// or smtps:// URL with a host');
  return raw;
}

/** APAS_MAIL_FROM: the sender of notifications, a bare address or `Name <address>`. */
function mailFromSetting(env: NodeJS.ProcessEnv, publicUrl: string): string {
  const raw = (env.APAS_MAIL_FROM ?? '').trim() || `apas@${new URL(publicUrl).hostname}`;
  if (!/^(?:[^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+>?$/.test(raw)) throw new ConfigError(`APAS_MAIL_FROM must be an e-mail address such as apas@example.org or "APAS <apas@example.org>", got "${raw}"`);
  return raw;
}

/** APAS_SECRET_KEYS or APAS_SECRET_KEY_FILE (not both); the keys' form is checked when the store opens them. */
function secretKeysSetting(env: NodeJS.ProcessEnv): Config['secretKeys'] {
  const keys = (env.APAS_SECRET_KEYS ?? '').trim();
  const file = (env.APAS_SECRET_KEY_FILE ?? '').trim();
  if (keys !== '' && file !== '') throw new ConfigError('Set APAS_SECRET_KEYS or APAS_SECRET_KEY_FILE, not both');
  return { keys: keys === '' ? null : keys, file: file === '' ? null : path.resolve(file) };
}

/** APAS_METRICS_PORT (1-65535, not APAS_PORT) and APAS_METRICS_HOST (127.0.0.1 when unset), or null when no port is set. */
function metricsSetting(env: NodeJS.ProcessEnv, port: number): Config['metrics'] {
  if ((env.APAS_METRICS_PORT ?? '').trim() === '') return null;
  const metricsPort = int(env, 'APAS_METRICS_PORT', 0, 1, 65535);
  if (metricsPort === port) throw new ConfigError(`APAS_METRICS_PORT must differ from APAS_PORT (${port})`);
  return { port: metricsPort, host: hostSetting({ APAS_HOST: env.APAS_METRICS_HOST }, 'APAS_METRICS_HOST') };
}

/** APAS_INSTANCE_NAME, else `apas@HOST:PORT`; PostgreSQL keeps 63 bytes of an application_name, printable ASCII. */
function instanceNameSetting(env: NodeJS.ProcessEnv, port: number): string {
  const raw = (env.APAS_INSTANCE_NAME ?? '').trim();
  if (raw !== '' && !/^[\x20-\x7e]{1,63}$/.test(raw)) {
    throw new ConfigError(`APAS_INSTANCE_NAME must be 1-63 printable ASCII characters, got "${raw}"`);
  }
  return raw !== '' ? raw : `apas@${os.hostname()}:${port}`.slice(0, 63);
}

/** APAS_S3_*: the bucket of APAS_BLOB_STORE=s3, checked at start so that a typo stops the start, not the first upload. */
function s3Setting(env: NodeJS.ProcessEnv, blobStore: Config['blobStore']): S3Config | null {
  if (blobStore !== 's3') return null;
  const value = (name: string) => (env[name] ?? '').trim();
  const bucket = value('APAS_S3_BUCKET');
  if (bucket === '') throw new ConfigError('APAS_BLOB_STORE=s3 needs APAS_S3_BUCKET, the name of the bucket for uploaded files');
  // The rules S3 and the compatible servers share (no upper case, no underscores), so a bad name fails here.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`APAS_S3_BUCKET must be a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens, got "${bucket}"`);
  }
  const endpoint = value('APAS_S3_ENDPOINT') === '' ? null : urlSetting(env, 'APAS_S3_ENDPOINT', '');
  const region = value('APAS_S3_REGION') || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/i.test(region)) throw new ConfigError(`APAS_S3_REGION must be a region name such as eu-central-1, got "${region}"`);
  const prefix = value('APAS_S3_PREFIX').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !/^[A-Za-z0-9!_.*'()/-]{1,200}$/.test(prefix)) {
    throw new ConfigError(`APAS_S3_PREFIX must be at most 200 letters, digits and the characters / ! _ . * ' ( ) -, got "${prefix}"`);
  }
  const accessKeyId = value('APAS_S3_ACCESS_KEY_ID');
  // Not trimmed: a secret is used exactly as given.
  const secretAccessKey = env.APAS_S3_SECRET_ACCESS_KEY ?? '';
  if ((accessKeyId === '') !== (secretAccessKey === '')) throw new ConfigError('Set both APAS_S3_ACCESS_KEY_ID and APAS_S3_SECRET_ACCESS_KEY, or neither (the AWS SDK\'s default credentials)');
  return {
    endpoint, bucket, region, prefix: prefix === '' ? '' : `${prefix}/`, forcePathStyle: flag(env, 'APAS_S3_FORCE_PATH_STYLE'),
    credentials: accessKeyId === '' ? null : { accessKeyId, secretAccessKey },
  };
}

/** Reads and validates the configuration; throws ConfigError with a clear message on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'APAS_PORT', 8080, 0, 65535);
  const host = hostSetting(env);
  const logLevel = (env.APAS_LOG_LEVEL ?? '').trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`APAS_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const database = parseDatabaseUrl(env.DATABASE_URL);
  const storeRaw = (env.APAS_RATE_LIMIT_STORE ?? '').trim();
  if (storeRaw !== '' && storeRaw !== 'memory' && storeRaw !== 'database') {
    throw new ConfigError(`APAS_RATE_LIMIT_STORE must be "memory" or "database", got "${storeRaw}"`);
  }
  const rateStore = storeRaw === '' ? (database.kind === 'postgres' ? 'database' : 'memory') : storeRaw;
  const publicUrl = urlSetting(env, 'APAS_PUBLIC_URL', `http://localhost:${port}`);
  // Several instances share one PostgreSQL but not one disk, so uploads then go to the database by default.
  const blobStore = choice(env, 'APAS_BLOB_STORE', ['local', 'database', 's3'] as const, database.kind === 'postgres' ? 'database' : 'local');
  return {
    host,
    port,
    metrics: metricsSetting(env, port),
    instanceName: instanceNameSetting(env, port),
    database,
    publicUrl,
    xmlNamespace: namespaceSetting(env),
    bodyLimitBytes: int(env, 'APAS_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel,
    maxNumbersPerRequest: int(env, 'APAS_MAX_NUMBERS_PER_REQUEST', 1000, 1, 100000),
    requestTimeoutMs: int(env, 'APAS_REQUEST_TIMEOUT_MS', 30000, 100, 3600000),
    rateLimit: {
      max: int(env, 'APAS_RATE_LIMIT_MAX', 1200, 1, 10_000_000),
      windowSeconds: int(env, 'APAS_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
      store: rateStore,
    },
    pgPoolSize: int(env, 'APAS_PG_POOL_SIZE', 10, 1, 200),
    heapGrowthPercent: int(env, 'APAS_HEAP_GROWTH_PERCENT', 40, 0, 300),
    db: {
      connectTimeoutMs: int(env, 'APAS_DB_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
      statementTimeoutMs: int(env, 'APAS_DB_STATEMENT_TIMEOUT_MS', 30_000, 100, 86_400_000),
      startAttempts: int(env, 'APAS_DB_START_ATTEMPTS', 10, 1, 1000),
      preparedStatements: flag(env, 'APAS_DB_PREPARED_STATEMENTS', true),
    },
    trustProxy: trustProxySetting(env),
    signIn: {
      windowSeconds: int(env, 'APAS_SIGNIN_WINDOW_SECONDS', 900, 1, 86400),
      lockUserAfter: int(env, 'APAS_SIGNIN_LOCK_USER_AFTER', 10, 1, 1_000_000),
      lockAddressAfter: int(env, 'APAS_SIGNIN_LOCK_ADDRESS_AFTER', 50, 1, 1_000_000),
      accountSlowAfter: int(env, 'APAS_SIGNIN_ACCOUNT_SLOW_AFTER', 5, 1, 1_000_000),
    },
    blobStore,
    blobDir: (env.APAS_BLOB_DIR ?? '').trim() === '' ? defaultBlobDir(database) : path.resolve((env.APAS_BLOB_DIR ?? '').trim()),
    maxUploadBytes: int(env, 'APAS_MAX_UPLOAD_BYTES', 104_857_600, 1, 1024 ** 4),
    s3: s3Setting(env, blobStore),
    web: {
      sessionIdleMinutes: int(env, 'APAS_WEB_SESSION_IDLE_MINUTES', 30, 1, 7 * 24 * 60),
      sessionMaxHours: int(env, 'APAS_WEB_SESSION_MAX_HOURS', 12, 1, 24 * 30),
      timeZone: timeZoneSetting(env),
    },
    oauth: { tokenTtlSeconds: int(env, 'APAS_OAUTH_TOKEN_TTL_SECONDS', 3600, 60, 86400) },
    eventRetentionDays: int(env, 'APAS_EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhooks: {
      allowInsecure: flag(env, 'APAS_WEBHOOK_ALLOW_INSECURE'),
      timeoutMs: int(env, 'APAS_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      intervalMs: int(env, 'APAS_WEBHOOK_INTERVAL_MS', 1000, 50, 3_600_000),
      disableAfterHours: int(env, 'APAS_WEBHOOK_DISABLE_AFTER_HOURS', 72, 1, 24 * 365),
      logRetentionDays: int(env, 'APAS_WEBHOOK_LOG_RETENTION_DAYS', 30, 1, 3650),
    },
    mail: {
      smtpUrl: smtpSetting(env), from: mailFromSetting(env, publicUrl), intervalMs: int(env, 'APAS_MAIL_INTERVAL_MS', 5000, 10, 3_600_000),
      retentionDays: int(env, 'APAS_MAIL_RETENTION_DAYS', 30, 1, 3650),
    },
    deadlineIntervalMs: int(env, 'APAS_DEADLINE_INTERVAL_MS', 15_000, 50, 30_000),
    documentLeaseMs: int(env, 'APAS_DOCUMENT_LEASE_MS', 300_000, 1_000, 3_600_000),
    connectionLeaseMs: int(env, 'APAS_CONNECTION_LEASE_MS', 60_000, 1_000, 3_600_000),
    secretKeys: secretKeysSetting(env),
    signing: {
      p12File: (env.APAS_SIGNING_P12 ?? '').trim() === '' ? null : path.resolve((env.APAS_SIGNING_P12 ?? '').trim()),
      // Not trimmed: a passphrase may begin or end with a space.
      passphrase: env.APAS_SIGNING_P12_PASSPHRASE ?? '',
    },
  };
}
