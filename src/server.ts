/**
 * Service entry: read the config, load and verify the pinned release (and every release a key is
 * pinned to), set up the bulk-jobs service, listen. Everything else is in the app factory (src/api/app.ts). SIGTERM/SIGINT
 * close the server gracefully: no new connections, in-flight requests finish, then exit.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.ts';
import { createLogger, type Logger } from './api/logger.ts';
import { ConfigError, loadConfig, type ServiceConfig } from './config.ts';
import { createJobService, loadJobsConfig, type JobService } from './jobs/index.ts';
import { releaseSourceFromEnv } from './reference/release-source.ts';
import { createReleaseCatalog, loadEngine, type ReleaseCatalog } from './releases.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/** Each release is fetched or read from the mirror, MD5-verified and parsed once, before listening. */
async function loadCatalog(config: ServiceConfig, logger: Logger): Promise<ReleaseCatalog> {
  const source = releaseSourceFromEnv();
  const pinned = (config.apiKeys ?? []).map((entry) => entry.tag).filter((tag): tag is string => tag !== null);
  return createReleaseCatalog({
    defaultTag: source.tag,
    preload: [...new Set(pinned)],
    load: (tag) =>
      loadEngine(releaseSourceFromEnv({ ...process.env, HLA_SERVICE_TAG: tag }), (report) => {
        logger.info(
          {
            tag: report.tag,
            release: report.version,
            mirror: report.mirrorDir,
            missing_optional_files: report.missingOptional,
            warnings: report.warnings,
            ms: Math.round(report.timings.totalMs),
          },
          'release loaded and verified',
        );
        if (report.missingOptional.length > 0) {
          logger.warn({ tag: report.tag, files: report.missingOptional }, 'optional release files missing: the facts they feed are unknown');
        }
      }),
  });
}

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
    const catalog = await loadCatalog(config, logger);
    jobs = createJobService(loadJobsConfig(), { engineFor: (tag) => catalog.engineFor(tag), log: logger });
    app = await buildApp({ catalog, config, logger, jobs });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    logger.fatal({ reason: error instanceof Error ? error.message : String(error) }, 'start-up failed');
    process.exit(1);
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app
      .close()
      .then(() => jobs.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
