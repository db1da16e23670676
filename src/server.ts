/**
 * Service entry: read the config, load and verify the pinned release (and every release a key is
 * pinned to), set up the bulk-jobs service, listen. Everything else is in the app factory (src/api/app.ts). SIGTERM/SIGINT
 * close the server gracefully: no new connections, in-flight requests finish, then exit.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.ts';
import { createLogger, logReleaseLoaded } from './api/logger.ts';
import { ConfigError, loadConfig, type ServiceConfig } from './config.ts';
import { createJobService, loadJobsConfig, type JobService } from './jobs/index.ts';
import { catalogFromEnv } from './releases.ts';
import { closeOnSignals } from './shutdown.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`hla-verify: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  let app: FastifyInstance;
  let jobs: JobService;
  try {
    // Each release is fetched or read from the mirror, MD5-verified and parsed once, before listening.
    const pinned = (config.apiKeys ?? []).flatMap((entry) => (entry.tag === null ? [] : [entry.tag]));
    const catalog = await catalogFromEnv(process.env, { preload: [...new Set(pinned)], onLoaded: logReleaseLoaded(logger) });
    jobs = createJobService(loadJobsConfig(), { engineFor: (tag) => catalog.engineFor(tag), log: logger });
    app = await buildApp({ catalog, config, logger, jobs });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    logger.fatal({ reason: error instanceof Error ? error.message : String(error) }, 'start-up failed');
    process.exit(1);
  }

  closeOnSignals(logger, () => app.close().then(() => jobs.close()), {
    what: 'finishing in-flight requests',
    graceMs: SHUTDOWN_GRACE_MS,
  });
}

void main();
