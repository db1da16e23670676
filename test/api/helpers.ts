/** Shared set-up of the API tests: the real releases (offline), an app per test, captured logs. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/api/app.ts';
import { createLogger, type Logger } from '../../src/api/logger.ts';
import { loadConfig } from '../../src/config.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import type { ReleaseCatalog } from '../../src/releases.ts';
import { loadTestCatalog } from '../support/engine.ts';

let catalog: Promise<ReleaseCatalog> | undefined;

/** 3.65.0 by default, 3.58.0 on demand; loaded once per test file. */
export function testCatalog(): Promise<ReleaseCatalog> {
  catalog ??= loadTestCatalog();
  return catalog;
}

/** A logger whose lines are kept for the test to read. */
export function capturingLogger(level = 'info'): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level, destination: stream });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

export interface TestAppOptions extends Partial<Omit<BuildAppOptions, 'config'>> {
  env?: Record<string, string>;
}

/** An app over the real catalog, configured from `env` (as the server would be), silent by default. */
export async function testApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const { env = {}, ...rest } = options;
  return buildApp({
    catalog: rest.catalog ?? (await testCatalog()),
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    logger: rest.logger ?? createLogger({ level: 'silent' }),
    ...rest,
  });
}

/** A catalog whose default engine throws from every operation (for the 500 path). */
export function brokenCatalog(real: ReleaseCatalog, message: string): ReleaseCatalog {
  const failing = new Set(['verify', 'normalize', 'lookup', 'resolve', 'normalizeOne', 'classify']);
  const engine = new Proxy(real.defaultEngine, {
    get(target, property, receiver) {
      if (typeof property === 'string' && failing.has(property)) {
        return () => {
          throw new TypeError(message);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Engine;
  return { ...real, defaultEngine: engine, loaded: real.loaded, engineFor: real.engineFor };
}

/** Waits, if needed, so that the next few seconds stay inside one rate-limit minute. */
export async function awayFromMinuteBoundary(marginMs = 5_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - marginMs) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}
