/**
 * The application factory: takes its dependencies (release catalog, config, logger, optional
 * bulk-jobs service) and returns a Fastify app, ready for `inject` in tests or `listen` in
 * src/server.ts. Everything a request passes through is wired here, in order.
 */
import { existsSync } from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { ServiceConfig } from '../config.ts';
import type { JobService } from '../jobs/types.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import { compileRequestCheck } from '../operations/schemas.ts';
import type { ReleaseCatalog } from '../releases.ts';
import { KeyRing, type Caller } from './callers.ts';
import type { ApiContext } from './context.ts';
import { clientErrorReply, collectRouteMethods, frameworkErrorReply, registerErrorHandling } from './errors.ts';
import { registerRequestHooks } from './hooks.ts';
import { createLogger, type Logger } from './logger.ts';
import { registerDocsUi, registerOpenApi } from './openapi.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limit.ts';
import { alleleRoutes } from './routes/allele.ts';
import { demoRoutes } from './routes/demo.ts';
import { healthRoutes } from './routes/health.ts';
import { matchRoutes } from './routes/match.ts';
import { normalizeRoutes } from './routes/normalize.ts';
import { releaseDiffRoutes } from './routes/release-diff.ts';
import { usageRoutes } from './routes/usage.ts';
import { verifyRoutes } from './routes/verify.ts';
import { MemoryUsageMeter, RedisUsageMeter, type UsageMeter } from './usage-meter.ts';

export interface BuildAppOptions {
  readonly catalog: ReleaseCatalog;
  readonly config: ServiceConfig;
  /** Defaults to a pino logger at `config.logLevel` on stdout. */
  readonly logger?: Logger;
  /** The bulk-jobs service, handed to the `jobsRoutes` plugin of src/api/routes/jobs.ts (the caller closes it). */
  readonly jobs?: JobService;
  /** A Redis client to use instead of connecting to `config.redisUrl` (the caller closes it). */
  readonly redis?: Redis;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's own options, shared with the bench's bare route so both run the same setup. */
export function fastifyOptions(config: ServiceConfig, logger: Logger): FastifyServerOptions {
  let sequence = 0;
  return {
    loggerInstance: logger,
    // One access line per request, written by hooks.ts without the URL; Fastify's own request
    // lines (which carry the URL, and so an allele name) are off.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    bodyLimit: config.bodyLimitBytes,
    // A hop count is accepted at run time (proxy-addr), though Fastify's types list only the rest.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // A caller's X-Request-Id is kept when it is a plain token; otherwise one is generated.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      if (typeof given === 'string' && REQUEST_ID.test(given)) return given;
      sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
      return `req-${process.pid.toString(36)}-${sequence.toString(36)}`;
    },
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: frameworkErrorReply(config.bodyLimitBytes),
    clientErrorHandler: clientErrorReply,
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { catalog, config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // The instance type carries the pino logger type; the rest of the code takes a plain FastifyInstance.
  const app = Fastify(fastifyOptions(config, logger)) as unknown as FastifyInstance;

  const { limiter, meter, close } = await countersFor(config, options.redis, logger);
  app.addHook('onClose', close);
  const engines = await pinnedEngines(catalog, config, logger);
  const keyring = config.apiKeys === null ? null : new KeyRing(config.apiKeys);
  const ctx: ApiContext = {
    config,
    catalog,
    keyring,
    limiter,
    meter,
    engineOf: (caller: Caller) =>
      caller.kind === 'key' && caller.tag !== null ? (engines.get(caller.tag) ?? catalog.defaultEngine) : catalog.defaultEngine,
  };
  announceAccessMode(logger, config);

  // Schemas: TypeBox checks (the same wording as the operations and the CLI); responses are
  // written with JSON.stringify, so a body is exactly what the operation returned.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const check = compileRequestCheck(schema as Parameters<typeof compileRequestCheck>[0], httpPart ?? 'body');
    return (value: unknown) => {
      try {
        return { value: check(value) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.removeContentTypeParser('text/plain'); // JSON only: anything else is 415
  registerErrorHandling(app, config.bodyLimitBytes);
  const addMethodNotAllowedRoutes = collectRouteMethods(app);
  registerRequestHooks(app, ctx);

  await registerOpenApi(app, catalog.defaultEngine.release);
  await app.register(verifyRoutes);
  await app.register(normalizeRoutes);
  await app.register(alleleRoutes);
  await app.register(matchRoutes);
  await app.register(releaseDiffRoutes, { ctx });
  await app.register(usageRoutes, { ctx });
  await app.register(healthRoutes, { ctx });
  await app.register(demoRoutes);
  if (options.jobs !== undefined) await registerJobsRoutes(app, options.jobs);
  await registerDocsUi(app);
  addMethodNotAllowedRoutes();
  return app;
}

/** Limits and usage counts: shared through Redis when REDIS_URL is set, in memory otherwise. */
async function countersFor(
  config: ServiceConfig,
  given: Redis | undefined,
  logger: Logger,
): Promise<{ limiter: RateLimiter; meter: UsageMeter; close: () => Promise<void> }> {
  if (given === undefined && config.redisUrl === null) {
    return { limiter: new MemoryRateLimiter(), meter: new MemoryUsageMeter(), close: async () => {} };
  }
  let redis = given;
  if (redis === undefined) {
    redis = new Redis(config.redisUrl as string, {
      lazyConnect: true,
      enableOfflineQueue: false, // when Redis is away, fail fast (and let requests through)
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
    });
    redis.on('error', () => {}); // failures are logged where a command fails, once a minute
    try {
      await redis.connect();
    } catch {
      redis.disconnect();
      throw new Error('REDIS_URL is set but Redis does not answer there');
    }
  }
  const client = redis;
  logger.info({ store: 'redis' }, 'rate limits and usage counts are shared through Redis');
  return {
    limiter: new RedisRateLimiter(client, config.redisPrefix, logger),
    meter: new RedisUsageMeter(client, config.redisPrefix, logger),
    close: async () => {
      if (given === undefined) await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Every release a key is pinned to, loaded (and verified) once, before the first request. */
async function pinnedEngines(catalog: ReleaseCatalog, config: ServiceConfig, logger: Logger): Promise<Map<string, Engine>> {
  const engines = new Map<string, Engine>();
  const tags = new Set((config.apiKeys ?? []).map((entry) => entry.tag).filter((tag): tag is string => tag !== null));
  for (const tag of tags) {
    const engine = await catalog.engineFor(tag);
    engines.set(tag, engine);
    logger.info({ tag, release: engine.release, alleles: engine.alleleCount }, 'release loaded for pinned keys');
  }
  return engines;
}

function announceAccessMode(logger: Logger, config: ServiceConfig): void {
  const anonymous = typeof config.anonymous === 'string' ? config.anonymous : `${config.anonymous.rpm}/min per IP`;
  if (config.apiKeys === null) {
    logger.warn(
      { anonymous },
      'HLA_SERVICE_API_KEYS is unset: open demo mode, never for a deployment reachable from outside',
    );
    if (config.anonymous === 'off') logger.warn('anonymous access is off and no key is configured: every /v1 call gets 401');
  } else {
    logger.info({ keys: config.apiKeys.map((entry) => entry.label), anonymous }, 'API keys configured');
  }
}

/**
 * The bulk-jobs routes (src/api/routes/jobs.ts, owned by the jobs work) are a plugin
 * `jobsRoutes({ jobs })`. They sit under /v1, so the hooks above give them the same
 * authentication, limits, metering and error handling. Loaded only when a job service is given,
 * so the synchronous API does not depend on the jobs code.
 */
async function registerJobsRoutes(app: FastifyInstance, jobs: JobService): Promise<void> {
  const location = new URL('./routes/jobs.ts', import.meta.url);
  if (!existsSync(location)) throw new Error('a jobs service was given but src/api/routes/jobs.ts does not exist');
  const module = (await import(location.href)) as { jobsRoutes?: Parameters<FastifyInstance['register']>[0] };
  if (typeof module.jobsRoutes !== 'function') throw new Error('src/api/routes/jobs.ts does not export jobsRoutes');
  await app.register(module.jobsRoutes, { jobs });
}
