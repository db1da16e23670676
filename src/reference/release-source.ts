/**
 * Where a release comes from: the pinned tag, an optional read-only local mirror, the download
 * cache and the download location. All environment reading for `src/reference` is here.
 */
import { stat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { type Env, envFlag, envInteger, envText } from '../env.ts';
import { ReleaseLoadError } from './errors.ts';
import { releaseCodeToVersion } from './history.ts';

export const DEFAULT_TAG = 'v3.65.0-alpha';
export const DEFAULT_BASE_URL = 'https://raw.githubusercontent.com/ANHIG/IMGTHLA';
export const DEFAULT_CACHE_ROOT = '.cache/imgthla';
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
export const DEFAULT_FETCH_RETRIES = 3;
export const DEFAULT_RETRY_DELAY_MS = 500;

export interface ReleaseSource {
  /** Git tag of ANHIG/IMGTHLA, e.g. `v3.65.0-alpha`. */
  readonly tag: string;
  /**
   * Read-only local mirror: either one release's files directly, or a folder with one sub-folder
   * per release named by version (`3.65.0/`, `3.58.0/`). Null: no mirror.
   */
  readonly dataDir: string | null;
  /** Directory of this tag's downloaded files (written atomically, MD5-checked on every load). */
  readonly cacheDir: string;
  /** Files are fetched from `<baseUrl>/<tag>/<path>`. */
  readonly baseUrl: string;
  /** True: never fetch; files that are in neither mirror nor cache are missing. */
  readonly offline: boolean;
  /** Per attempt, including reading the body. */
  readonly fetchTimeoutMs: number;
  /** Further attempts after the first failed one (timeouts, network errors, 5xx, 429). */
  readonly fetchRetries: number;
  /** Delay before the first retry; doubles on each further retry. */
  readonly retryDelayMs: number;
}

/** The documented defaults for a tag (cache under `<cwd>/.cache/imgthla/<tag>`). */
export function defaultReleaseSource(tag: string = DEFAULT_TAG, cwd: string = process.cwd()): ReleaseSource {
  return {
    tag,
    dataDir: null,
    cacheDir: path.resolve(cwd, DEFAULT_CACHE_ROOT, tag),
    baseUrl: DEFAULT_BASE_URL,
    offline: false,
    fetchTimeoutMs: DEFAULT_FETCH_TIMEOUT_MS,
    fetchRetries: DEFAULT_FETCH_RETRIES,
    retryDelayMs: DEFAULT_RETRY_DELAY_MS,
  };
}

/**
 * Reads the release source from the environment:
 * - `HLA_SERVICE_TAG` (default `v3.65.0-alpha`)
 * - `HLA_SERVICE_DATA_DIR` local mirror (default none)
 * - `HLA_SERVICE_CACHE_DIR` cache root; the tag's files go to `<root>/<tag>` so that two tags never
 *   share checksum lists (default `<cwd>/.cache/imgthla`)
 * - `HLA_SERVICE_DATA_BASE_URL` (default `https://raw.githubusercontent.com/ANHIG/IMGTHLA`)
 * - `HLA_SERVICE_OFFLINE` `true`/`false` (default false)
 * - `HLA_SERVICE_FETCH_TIMEOUT_MS` (default 30000), `HLA_SERVICE_FETCH_RETRIES` (default 3)
 */
const fail = (message: string): Error => new ReleaseLoadError('config', message);

export function releaseSourceFromEnv(env: Env = process.env, cwd: string = process.cwd()): ReleaseSource {
  const tag = envText(env.HLA_SERVICE_TAG) ?? DEFAULT_TAG;
  versionFromTag(tag); // fail at configuration time, not at the first download
  const dataDir = envText(env.HLA_SERVICE_DATA_DIR);
  const cacheRoot = envText(env.HLA_SERVICE_CACHE_DIR) ?? DEFAULT_CACHE_ROOT;
  return {
    tag,
    dataDir: dataDir === null ? null : path.resolve(cwd, dataDir),
    cacheDir: path.resolve(cwd, cacheRoot, tag),
    baseUrl: envText(env.HLA_SERVICE_DATA_BASE_URL) ?? DEFAULT_BASE_URL,
    offline: envFlag(env, 'HLA_SERVICE_OFFLINE', false, fail),
    fetchTimeoutMs: envInteger(env, 'HLA_SERVICE_FETCH_TIMEOUT_MS', { fallback: DEFAULT_FETCH_TIMEOUT_MS, min: 1 }, fail),
    fetchRetries: envInteger(env, 'HLA_SERVICE_FETCH_RETRIES', { fallback: DEFAULT_FETCH_RETRIES, min: 0 }, fail),
    retryDelayMs: DEFAULT_RETRY_DELAY_MS,
  };
}

const TAG_VERSION = /^v?(\d+\.\d+\.\d+)(?:-[0-9A-Za-z.-]+)?$/;

/**
 * Release version named by a tag: `v3.65.0-alpha` → `3.65.0`, `3.58.0` → `3.58.0`; a release
 * branch code also works (`3580` → `3.58.0`).
 */
export function versionFromTag(tag: string): string {
  const version = TAG_VERSION.exec(tag)?.[1] ?? releaseCodeToVersion(tag);
  if (version === null || version === undefined) {
    throw new ReleaseLoadError('config', `release tag ${JSON.stringify(tag)} names no release version (expected e.g. v3.65.0-alpha)`);
  }
  return version;
}

const VERSION_DIR = /^\d+\.\d+\.\d+$/;

/**
 * The directory holding this release's files inside a mirror: `<dataDir>/<version>` (or
 * `<dataDir>/<tag>`) when it exists; `<dataDir>/<version>` too when `dataDir` holds other releases'
 * folders only (then every file is missing there); otherwise `dataDir` itself.
 */
export async function resolveMirrorDir(dataDir: string, version: string, tag: string): Promise<string> {
  const info = await stat(dataDir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new ReleaseLoadError('config', `data directory ${dataDir} does not exist or is not a directory`);
  }
  for (const name of [version, tag]) {
    const candidate = path.join(dataDir, name);
    if ((await stat(candidate).catch(() => null))?.isDirectory()) return candidate;
  }
  const entries = await readdir(dataDir, { withFileTypes: true });
  const holdsReleases = entries.some((entry) => entry.isDirectory() && VERSION_DIR.test(entry.name));
  return holdsReleases ? path.join(dataDir, version) : dataDir;
}



