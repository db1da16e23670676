/**
 * Loads one release: finds each file (local mirror, then cache, then download), checks it against
 * the release's own MD5 lists, parses it, and returns immutable tables plus a report for the
 * start-up log. All file and network I/O of `src/reference` happens here and in `download.ts`;
 * the parsers are pure.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseAlleleList } from './allele-list.ts';
import { parseAlleleStatus } from './allele-status.ts';
import { parseDeletedAlleles } from './deleted-alleles.ts';
import { parseDnaSerology } from './dna-serology.ts';
import { download, writeAtomically } from './download.ts';
import { ReleaseLoadError } from './errors.ts';
import { parseGroups } from './groups.ts';
import { parseHistory } from './history.ts';
import { parseMd5List } from './md5-list.ts';
import { parseNomenclature2009 } from './nomenclature-2009.ts';
import { defaultReleaseSource, resolveMirrorDir, versionFromTag, type ReleaseSource } from './release-source.ts';
import { parseSerologyRelations } from './serology-relations.ts';
import type { OptionalReleaseFile, ReleaseTables } from './tables.ts';

export const CHECKSUM_LISTS = ['md5checksum.txt', 'wmda/md5checksum.txt'] as const;
export const REQUIRED_DATA_FILES = [
  'Allelelist.txt',
  'Deleted_alleles.txt',
  'Nomenclature_2009.txt',
  'wmda/hla_nom_g.txt',
  'wmda/hla_nom_p.txt',
  'wmda/rel_dna_ser.txt',
  'wmda/rel_ser_ser.txt',
] as const;
export const OPTIONAL_FILES: readonly OptionalReleaseFile[] = ['Allelelist_history.txt', 'Allele_status.txt'];

export type ChecksumList = (typeof CHECKSUM_LISTS)[number];
export type RequiredDataFile = (typeof REQUIRED_DATA_FILES)[number];
export type ReleaseFilePath = ChecksumList | RequiredDataFile | OptionalReleaseFile;

/** Where a file's bytes came from: the read-only mirror, the cache, or a download made now. */
export type FileOrigin = 'mirror' | 'cache' | 'fetched';

export interface LoadedFile {
  readonly file: ReleaseFilePath;
  readonly origin: FileOrigin;
  /** Absolute path, or the URL for downloads. */
  readonly location: string;
  readonly bytes: number;
  readonly md5: string;
  /** Download attempts (only for `fetched`). */
  readonly attempts?: number;
  /** Time spent parsing this file (0 for the checksum lists' own parse). */
  readonly parseMs: number;
}

export interface LoadReport {
  readonly tag: string;
  readonly version: string;
  /** The mirror folder actually used (after picking the release's sub-folder), or null. */
  readonly mirrorDir: string | null;
  readonly cacheDir: string;
  readonly offline: boolean;
  readonly files: readonly LoadedFile[];
  readonly missingOptional: readonly OptionalReleaseFile[];
  /** Oddities that do not stop the start-up (e.g. a file whose `# version:` names another release). */
  readonly warnings: readonly string[];
  readonly timings: {
    /** Finding, reading or downloading the files (wall clock, files read in parallel). */
    readonly acquireMs: number;
    /** MD5 computation, summed over files. */
    readonly verifyMs: number;
    /** Parsing, summed over files. */
    readonly parseMs: number;
    readonly totalMs: number;
  };
}

export interface LoadedRelease {
  readonly tables: ReleaseTables;
  readonly report: LoadReport;
}

/** Options are a `ReleaseSource`; omitted ones take the documented defaults (not the environment). */
export type LoadReleaseOptions = Partial<ReleaseSource>;

/**
 * Loads the release named by `options.tag`. Throws `ReleaseLoadError` (missing required file,
 * checksum mismatch, unverifiable file, failed download, wrong release) or `ReleaseFileError`
 * (a file that does not parse, with its line).
 */
export async function loadRelease(options: LoadReleaseOptions = {}): Promise<LoadedRelease> {
  const started = performance.now();
  const tag = options.tag ?? defaultReleaseSource().tag;
  const source: ReleaseSource = { ...defaultReleaseSource(tag), ...stripUndefined(options) };
  const version = versionFromTag(source.tag);
  const mirrorDir = source.dataDir === null ? null : await resolveMirrorDir(source.dataDir, version, source.tag);
  const context: AcquireContext = { source, mirrorDir, checksums: null, verifyMs: 0 };

  const lists = await Promise.all(CHECKSUM_LISTS.map((file) => acquire(file, context)));
  const checksums = new Map<string, string>();
  lists.forEach((list, k) => {
    const file = CHECKSUM_LISTS[k];
    if (list === null) throw missingRequired(file, context);
    const directory = path.posix.dirname(file);
    for (const entry of parseMd5List(list.content.toString('utf8'), file)) {
      checksums.set(directory === '.' ? entry.file : `${directory}/${entry.file}`, entry.md5);
    }
  });
  context.checksums = checksums;

  const dataFiles = [...REQUIRED_DATA_FILES, ...OPTIONAL_FILES];
  const unreachable: string[] = [];
  const acquired = await Promise.all(
    dataFiles.map((file) => {
      const pending = acquire(file, context);
      if (!(OPTIONAL_FILES as readonly string[]).includes(file)) return pending;
      // An optional file that cannot be downloaded degrades the facts it feeds; it never stops start-up.
      return pending.catch((error: unknown) => {
        if (!(error instanceof ReleaseLoadError) || error.code !== 'fetch_failed') throw error;
        unreachable.push(`optional ${error.message}`);
        return null;
      });
    }),
  );
  const acquireMs = performance.now() - started;
  const byFile = new Map<ReleaseFilePath, Acquired>();
  const missingOptional: OptionalReleaseFile[] = [];
  acquired.forEach((item, k) => {
    const file = dataFiles[k];
    if (item !== null) byFile.set(file, item);
    else if ((OPTIONAL_FILES as readonly string[]).includes(file)) missingOptional.push(file as OptionalReleaseFile);
    else throw missingRequired(file, context);
  });

  // Parsing: sequential and synchronous; each parse is timed for the report.
  const parseTimes = new Map<ReleaseFilePath, number>();
  const warnings: string[] = [...unreachable];
  function parse<T>(file: ReleaseFilePath, parser: (text: string, fileName: string) => T): T {
    const begin = performance.now();
    const result = parser(byFile.get(file)!.content.toString('utf8'), file);
    parseTimes.set(file, performance.now() - begin);
    const headerVersion = (result as { version?: unknown }).version;
    if (typeof headerVersion === 'string' && headerVersion !== version) {
      warnings.push(`${file} says "# version: IPD-IMGT/HLA ${headerVersion}" although its checksum matches release ${source.tag}`);
    }
    return result;
  }
  const alleleList = parse('Allelelist.txt', parseAlleleList);
  if (alleleList.version !== version) {
    throw new ReleaseLoadError(
      'version_mismatch',
      `Allelelist.txt is release ${alleleList.version} (its "# version:" header) but tag ${source.tag} names release ${version}; source: ${byFile.get('Allelelist.txt')!.location}`,
      'Allelelist.txt',
    );
  }
  const deleted = parse('Deleted_alleles.txt', parseDeletedAlleles);
  const conversions = parse('Nomenclature_2009.txt', parseNomenclature2009);
  const gGroups = parse('wmda/hla_nom_g.txt', parseGroups);
  const pGroups = parse('wmda/hla_nom_p.txt', parseGroups);
  const dnaSerology = parse('wmda/rel_dna_ser.txt', parseDnaSerology);
  const serologyRelations = parse('wmda/rel_ser_ser.txt', parseSerologyRelations);
  const history = byFile.has('Allelelist_history.txt') ? parse('Allelelist_history.txt', parseHistory) : null;
  const alleleStatus = byFile.has('Allele_status.txt') ? parse('Allele_status.txt', parseAlleleStatus) : null;

  const tables: ReleaseTables = {
    version,
    tag: source.tag,
    alleles: Object.freeze(alleleList.rows),
    deleted: Object.freeze([...deleted.deleted, ...deleted.suffixChanges]),
    conversions: Object.freeze(conversions),
    gGroups: Object.freeze(gGroups.rows),
    pGroups: Object.freeze(pGroups.rows),
    dnaSerology: Object.freeze(dnaSerology.rows),
    serologyRelations: Object.freeze(serologyRelations.rows),
    history: history === null ? null : Object.freeze({ releases: Object.freeze(history.releases), rows: Object.freeze(history.rows) }),
    alleleStatus: alleleStatus === null ? null : Object.freeze(alleleStatus.rows),
    missingOptional: Object.freeze([...missingOptional]),
  };

  const files: LoadedFile[] = [];
  lists.forEach((list, k) => files.push(describe(CHECKSUM_LISTS[k], list!, 0)));
  for (const [file, item] of byFile) files.push(describe(file, item, parseTimes.get(file) ?? 0));
  const parseMs = [...parseTimes.values()].reduce((sum, ms) => sum + ms, 0);
  const report: LoadReport = {
    tag: source.tag,
    version,
    mirrorDir,
    cacheDir: source.cacheDir,
    offline: source.offline,
    files,
    missingOptional: tables.missingOptional,
    warnings,
    timings: { acquireMs: round(acquireMs), verifyMs: round(context.verifyMs), parseMs: round(parseMs), totalMs: round(performance.now() - started) },
  };
  return { tables: Object.freeze(tables), report };
}

/** One line per fact, for the start-up log. */
export function describeLoadReport(report: LoadReport): string[] {
  const lines = [
    `IPD-IMGT/HLA release ${report.version} (tag ${report.tag}) loaded in ${report.timings.totalMs} ms ` +
      `(files ${report.timings.acquireMs} ms, md5 ${report.timings.verifyMs} ms, parse ${report.timings.parseMs} ms)`,
  ];
  for (const file of report.files) {
    const attempts = (file.attempts ?? 1) > 1 ? `, ${file.attempts} attempts` : '';
    lines.push(`  ${file.file}: ${file.origin} ${file.location} (${file.bytes} bytes, md5 ${file.md5}${attempts})`);
  }
  if (report.missingOptional.length > 0) {
    lines.push(`  missing optional files (the facts they feed are unknown): ${report.missingOptional.join(', ')}`);
  }
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  return lines;
}

interface AcquireContext {
  readonly source: ReleaseSource;
  readonly mirrorDir: string | null;
  /** Release path → expected MD5; null while the checksum lists themselves are being acquired. */
  checksums: ReadonlyMap<string, string> | null;
  verifyMs: number;
}

interface Acquired {
  readonly origin: FileOrigin;
  readonly location: string;
  readonly content: Buffer;
  readonly md5: string;
  readonly attempts?: number;
}

/** Mirror, then cache, then (unless offline) download into the cache. Null: the file is in none. */
async function acquire(file: ReleaseFilePath, context: AcquireContext): Promise<Acquired | null> {
  const { source, mirrorDir } = context;
  for (const [origin, directory] of [['mirror', mirrorDir], ['cache', source.cacheDir]] as const) {
    if (directory === null) continue;
    const location = path.join(directory, ...file.split('/'));
    const content = await readIfPresent(location);
    if (content !== null) return { origin, location, content, md5: verify(file, content, location, context) };
  }
  if (source.offline) return null;
  const url = `${source.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(source.tag)}/${file}`;
  const fetched = await download(url, file, {
    timeoutMs: source.fetchTimeoutMs,
    retries: source.fetchRetries,
    retryDelayMs: source.retryDelayMs,
  });
  if (fetched.body === null) return null;
  const md5 = verify(file, fetched.body, url, context);
  await writeAtomically(path.join(source.cacheDir, ...file.split('/')), fetched.body);
  return { origin: 'fetched', location: url, content: fetched.body, md5, attempts: fetched.attempts };
}

/** Checks `content` against the release's MD5 list (the lists themselves are the root of trust). */
function verify(file: ReleaseFilePath, content: Buffer, location: string, context: AcquireContext): string {
  const begin = performance.now();
  const actual = createHash('md5').update(content).digest('hex');
  context.verifyMs += performance.now() - begin;
  if (context.checksums === null) return actual;
  const tag = context.source.tag;
  const expected = context.checksums.get(file);
  if (expected === undefined) {
    throw new ReleaseLoadError('unverifiable', `${file} (${location}) has no entry in the MD5 lists of release ${tag}, so it cannot be verified`, file);
  }
  if (actual !== expected) {
    throw new ReleaseLoadError(
      'checksum_mismatch',
      `${file}: MD5 ${actual} of ${location} differs from ${expected} listed by release ${tag}; refusing to use it`,
      file,
    );
  }
  return actual;
}

function missingRequired(file: ReleaseFilePath, context: AcquireContext): ReleaseLoadError {
  const { source, mirrorDir } = context;
  const places = [mirrorDir === null ? null : `mirror ${mirrorDir}`, `cache ${source.cacheDir}`].filter((p) => p !== null).join(', ');
  const fetching = source.offline ? 'fetching is disabled (offline)' : `${source.baseUrl}/${source.tag}/${file} does not exist`;
  return new ReleaseLoadError('missing_file', `required release file ${file} of ${source.tag} is missing: not in ${places}, and ${fetching}`, file);
}

async function readIfPresent(location: string): Promise<Buffer | null> {
  try {
    return await readFile(location);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function describe(file: ReleaseFilePath, item: Acquired, parseMs: number): LoadedFile {
  const entry = { file, origin: item.origin, location: item.location, bytes: item.content.length, md5: item.md5, parseMs: round(parseMs) };
  return item.attempts === undefined ? entry : { ...entry, attempts: item.attempts };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
