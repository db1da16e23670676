import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_BODY_LIMIT_BYTES, loadConfig, parseAnonymousAccess, parseApiKeys } from '../../src/config.ts';

describe('HLA_SERVICE_API_KEYS', () => {
  it('is open demo mode when unset or blank', () => {
    expect(parseApiKeys(undefined)).toBeNull();
    expect(parseApiKeys('  ')).toBeNull();
  });

  it('accepts bare keys and names them by a digest, not by the key', () => {
    const [a, b] = parseApiKeys('alpha-key-0001, beta-key-0002')!;
    expect(a).toMatchObject({ key: 'alpha-key-0001', rpm: null, tag: null });
    expect(a.label).toMatch(/^key-[0-9a-f]{8}$/);
    expect(a.label).not.toContain('alpha');
    expect(b.key).toBe('beta-key-0002');
    expect(a.label).not.toBe(b.label);
  });

  it('reads label, rpm and tag options after semicolons', () => {
    const entries = parseApiKeys('k3Yb0-aaaa;label=acme;rpm=600,Zq9+/=bbbb;label=lab-2;tag=v3.58.0-alpha;rpm=unlimited');
    expect(entries).toEqual([
      { key: 'k3Yb0-aaaa', label: 'acme', rpm: 600, tag: null },
      { key: 'Zq9+/=bbbb', label: 'lab-2', rpm: null, tag: 'v3.58.0-alpha' },
    ]);
  });

  it.each([
    [';label=x', /key is empty/],
    ['k1,,k2', /entry #2: the key is empty/],
    ['has space', /may contain only/],
    ['k1;colour=red', /unknown option/],
    ['k1;rpm=0', /rpm must be a positive integer/],
    ['k1;rpm=fast', /rpm must be a positive integer/],
    ['k1;label=a b', /label is 1 to 64/],
    ['k1;label=x,k2;label=x', /label x is used twice/],
    ['k1,k1', /same key is listed twice/],
    ['k1;rpm=5;rpm=6', /given twice/],
    ['k1;tag=', /has no value/],
  ])('rejects %j with a message that names the entry, never the key', (value, message) => {
    const run = () => parseApiKeys(value);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
    try {
      run();
    } catch (error) {
      expect((error as Error).message).toMatch(/^HLA_SERVICE_API_KEYS entry #\d+/);
      expect((error as Error).message).not.toContain('k1');
    }
  });
});

describe('HLA_SERVICE_ANON_RPM', () => {
  it('defaults to 60 per minute', () => {
    expect(parseAnonymousAccess(undefined)).toEqual({ rpm: 60 });
  });
  it('takes a number, unlimited or off', () => {
    expect(parseAnonymousAccess('120')).toEqual({ rpm: 120 });
    expect(parseAnonymousAccess('unlimited')).toBe('unlimited');
    expect(parseAnonymousAccess('OFF')).toBe('off');
  });
  it.each(['0', '-1', 'lots', '1.5'])('rejects %j', (value) => {
    expect(() => parseAnonymousAccess(value)).toThrow(/HLA_SERVICE_ANON_RPM/);
  });
});

describe('loadConfig', () => {
  it('has documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8000,
      host: '0.0.0.0',
      apiKeys: null,
      anonymous: { rpm: 60 },
      redisUrl: null,
      redisPrefix: 'hla:',
      bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
      trustProxy: false,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      HLA_SERVICE_API_KEYS: 'secret-1;label=one',
      HLA_SERVICE_ANON_RPM: 'off',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HLA_SERVICE_REDIS_PREFIX: 'test:',
      HLA_SERVICE_BODY_LIMIT: '4096',
      HLA_SERVICE_TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      anonymous: 'off',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'test:',
      bodyLimitBytes: 4096,
      trustProxy: 1,
      logLevel: 'warn',
    });
    expect(config.apiKeys).toEqual([{ key: 'secret-1', label: 'one', rpm: null, tag: null }]);
  });

  it.each([
    [{ PORT: 'http' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ HLA_SERVICE_BODY_LIMIT: '10' }, /HLA_SERVICE_BODY_LIMIT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
