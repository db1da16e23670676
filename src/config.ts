/**
 * Configuration of the HTTP service, read once from the environment. Every variable is documented
 * in docs/api.md; a bad value stops the start-up with a message naming the variable (never a key).
 * Where the release files come from (HLA_SERVICE_TAG, HLA_SERVICE_DATA_DIR, ...) is read by
 * src/reference/release-source.ts.
 */
import { type Env, envInteger, envText } from './env.ts';
import { createHash } from 'node:crypto';

/** The default release tag (HLA_SERVICE_TAG is read by src/reference/release-source.ts). */
export { DEFAULT_TAG } from './reference/release-source.ts';

/** One accepted API key (HLA_SERVICE_API_KEYS). */
export interface ApiKeyEntry {
  /** The secret itself. Never logged, never stored outside process memory. */
  readonly key: string;
  /** Name used in logs and usage counts. */
  readonly label: string;
  /** Requests per minute; null = no cap. */
  readonly rpm: number | null;
  /** Release tag this key is pinned to; null = the deployment's default release. */
  readonly tag: string | null;
}

/** Anonymous access: a per-minute cap per IP, no cap, or no anonymous access at all. */
export type AnonymousAccess = { readonly rpm: number } | 'unlimited' | 'off';

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** Accepted keys; null = open demo mode (HLA_SERVICE_API_KEYS unset or empty). */
  readonly apiKeys: readonly ApiKeyEntry[] | null;
  readonly anonymous: AnonymousAccess;
  /** Shared limits and usage counters live here when set; in process memory otherwise. */
  readonly redisUrl: string | null;
  /** Prefix of every Redis key the API writes. */
  readonly redisPrefix: string;
  readonly bodyLimitBytes: number;
  /** Fastify `trustProxy`: whether X-Forwarded-For decides the client IP for anonymous limits. */
  readonly trustProxy: boolean | number | string;
  readonly logLevel: string;
}

export const DEFAULT_ANON_RPM = 60;
/** 200,000 characters of text, JSON-escaped at worst six bytes each, fit comfortably. */
export const DEFAULT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const fail = (message: string): Error => new ConfigError(message);

export function loadConfig(env: Env = process.env): ServiceConfig {
  return {
    port: envInteger(env, 'PORT', { fallback: 8000, min: 0, max: 65535 }, fail),
    host: envText(env.HOST) ?? '0.0.0.0',
    apiKeys: parseApiKeys(env.HLA_SERVICE_API_KEYS),
    anonymous: parseAnonymousAccess(env.HLA_SERVICE_ANON_RPM),
    redisUrl: envText(env.REDIS_URL),
    redisPrefix: envText(env.HLA_SERVICE_REDIS_PREFIX) ?? 'hla:',
    bodyLimitBytes: envInteger(env, 'HLA_SERVICE_BODY_LIMIT', { fallback: DEFAULT_BODY_LIMIT_BYTES, min: 1024 }, fail),
    trustProxy: parseTrustProxy(env.HLA_SERVICE_TRUST_PROXY),
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}



/**
 * Key syntax (docs/api.md "Keys"): entries separated by `,`; each entry is the key, optionally
 * followed by `;name=value` options: `label`, `rpm` (integer or `unlimited`), `tag`.
 *
 *   HLA_SERVICE_API_KEYS="k3Yb0…;label=acme;rpm=600,Zq9…;label=lab-2;tag=v3.58.0-alpha"
 *
 * Neither `,` nor `;` can occur in a key (keys use the bearer-token alphabet), so the list is
 * unambiguous. Without a label, the key is named `key-<first 8 hex digits of its SHA-256>`.
 */
const KEY_ALPHABET = /^[A-Za-z0-9._~+/=-]+$/;
const LABEL_SYNTAX = /^[A-Za-z0-9._-]{1,64}$/;
const TAG_SYNTAX = /^[A-Za-z0-9._-]{1,64}$/;
const KEY_OPTIONS = ['label', 'rpm', 'tag'] as const;

export function parseApiKeys(value: string | undefined): ApiKeyEntry[] | null {
  const text = envText(value);
  if (text === null) return null;
  const entries: ApiKeyEntry[] = [];
  const labels = new Set<string>();
  const keys = new Set<string>();
  text.split(',').forEach((raw, index) => {
    const where = `HLA_SERVICE_API_KEYS entry #${index + 1}`;
    const [keyPart, ...optionParts] = raw.trim().split(';');
    const key = keyPart.trim();
    if (key === '') throw new ConfigError(`${where}: the key is empty`);
    if (!KEY_ALPHABET.test(key)) {
      throw new ConfigError(`${where}: a key may contain only letters, digits and . _ ~ + / = -`);
    }
    if (keys.has(key)) throw new ConfigError(`${where}: the same key is listed twice`);
    const options = new Map<string, string>();
    for (const part of optionParts) {
      const eq = part.indexOf('=');
      const name = (eq < 0 ? part : part.slice(0, eq)).trim();
      const optionValue = eq < 0 ? '' : part.slice(eq + 1).trim();
      if (!(KEY_OPTIONS as readonly string[]).includes(name)) {
        throw new ConfigError(`${where}: unknown option; the options are ${KEY_OPTIONS.join(', ')}`);
      }
      if (options.has(name)) throw new ConfigError(`${where}: option ${name} is given twice`);
      if (optionValue === '') throw new ConfigError(`${where}: option ${name} has no value`);
      options.set(name, optionValue);
    }
    const label = options.get('label') ?? defaultLabel(key);
    if (!LABEL_SYNTAX.test(label)) {
      throw new ConfigError(`${where}: a label is 1 to 64 letters, digits, '.', '_' or '-'`);
    }
    if (labels.has(label)) throw new ConfigError(`${where}: label ${label} is used twice`);
    const tag = options.get('tag') ?? null;
    if (tag !== null && !TAG_SYNTAX.test(tag)) throw new ConfigError(`${where}: tag is not a release tag`);
    entries.push({ key, label, rpm: parseKeyRpm(options.get('rpm'), where), tag });
    labels.add(label);
    keys.add(key);
  });
  return entries;
}

function parseKeyRpm(value: string | undefined, where: string): number | null {
  if (value === undefined || value === 'unlimited') return null;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new ConfigError(`${where}: rpm must be a positive integer or 'unlimited'`);
  }
  return Number(value);
}

function defaultLabel(key: string): string {
  // A short digest names the key in logs and usage without revealing it.
  return `key-${sha256Hex(key).slice(0, 8)}`;
}

export function parseAnonymousAccess(value: string | undefined): AnonymousAccess {
  const text = envText(value)?.toLowerCase() ?? null;
  if (text === null) return { rpm: DEFAULT_ANON_RPM };
  if (text === 'unlimited') return 'unlimited';
  if (text === 'off') return 'off';
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new ConfigError("HLA_SERVICE_ANON_RPM must be a positive integer, 'unlimited' or 'off'");
  }
  return { rpm: Number(text) };
}


function parseTrustProxy(value: string | undefined): boolean | number | string {
  const text = envText(value);
  if (text === null || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text); // number of hops
  return text; // addresses / CIDR list, as Fastify accepts it
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(value: string | undefined): string {
  const text = envText(value)?.toLowerCase() ?? 'info';
  if (!LOG_LEVELS.includes(text)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return text;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
