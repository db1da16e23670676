/**
 * `hla diff --from TAG --to TAG [--format csv|json] [--names FILE]`: the verdict changes between
 * two releases on stdout, a one-line summary on stderr. src/cli/main.ts hands over the arguments
 * after `diff`, its output functions and the release source its options and environment give;
 * this file parses, loads the two releases from that source, and prints.
 * Exit status as in main.ts: 0 done, 2 bad usage or unreadable names file, 3 release not loadable.
 */
import { readFile as readFileFromDisk } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from '../nomenclature/engine-types.ts';
import { type ReleaseSource, releaseSourceFromEnv } from '../reference/release-source.ts';
import { diffToCsv } from '../release-diff/csv.ts';
import { diffReleases } from '../release-diff/diff.ts';
import { releaseTag } from '../release-diff/release-tag.ts';
import { CHANGE_KINDS, type ReleaseDiff } from '../release-diff/types.ts';
import { loadEngine } from '../releases.ts';

export interface DiffCommandContext {
  /** The CLI's output functions (main.ts's `CliIo` fits). */
  readonly io: { readonly stdout: (text: string) => void; readonly stderr: (text: string) => void };
  /**
   * Where releases come from (mirror, cache, download), as main.ts resolved it from its options
   * and the environment; its tag is replaced by `--from` / `--to`. Default: the environment.
   */
  readonly source?: ReleaseSource;
  /** Loads one release by tag; defaults to loading it from `source`. Tests inject engines here. */
  readonly loadEngine?: (tag: string) => Promise<Engine>;
  /** Reads the `--names` file; defaults to the file system. */
  readonly readFile?: (file: string) => Promise<string>;
}

export const DIFF_USAGE = `Usage: hla diff --from TAG --to TAG [--format json|csv] [--names FILE]

Lists every name whose verdict (status, current name, successor, 2-field name, G group, flags)
differs between two releases, each under its most important kind (docs/release-diff.md).
TAG is a release version (3.58.0) or a git tag (v3.58.0-alpha).

  --from TAG       release the pin moves from
  --to TAG         release the pin moves to
  --format FORMAT  json (default) or csv (one row per changed name)
  --names FILE     compare only these names (one per line; blank lines and # comments skipped)
                   instead of every name either release knows

Releases load like the service's: --data-dir DIR / HLA_SERVICE_DATA_DIR, --offline.
Exit status: 0 done, 2 bad usage or unreadable names file, 3 release not loadable.
`;

export const DIFF_EXIT = { ok: 0, usage: 2, releaseUnavailable: 3 } as const;

const FORMATS = ['json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

export interface DiffArguments {
  readonly from: string;
  readonly to: string;
  readonly format: Format;
  readonly namesFile: string | null;
}

class UsageError extends Error {}

/** Runs the command; `argv` is what follows `diff` (a leading `diff` is skipped too). */
export async function runDiffCommand(argv: readonly string[], context: DiffCommandContext): Promise<number> {
  const { io } = context;
  let parsed: DiffArguments | 'help';
  try {
    parsed = parseDiffArguments(argv[0] === 'diff' ? argv.slice(1) : argv);
  } catch (error) {
    io.stderr(`hla diff: ${(error as Error).message}\n\n${DIFF_USAGE}`);
    return DIFF_EXIT.usage;
  }
  if (parsed === 'help') {
    io.stdout(DIFF_USAGE);
    return DIFF_EXIT.ok;
  }

  let names: string[] | undefined;
  if (parsed.namesFile !== null) {
    try {
      names = parseNamesFile(await (context.readFile ?? readText)(parsed.namesFile));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      io.stderr(`hla diff: cannot read ${parsed.namesFile}: ${code ?? (error as Error).message}\n`);
      return DIFF_EXIT.usage;
    }
  }

  const load = context.loadEngine ?? loaderFrom(context.source ?? releaseSourceFromEnv());
  const engines: Engine[] = [];
  for (const tag of [releaseTag(parsed.from), releaseTag(parsed.to)]) {
    try {
      engines.push(await load(tag));
    } catch (error) {
      io.stderr(`hla diff: release ${tag} could not be loaded: ${(error as Error).message}\n`);
      return DIFF_EXIT.releaseUnavailable;
    }
  }

  const diff = diffReleases(engines[0], engines[1], names === undefined ? {} : { names });
  io.stdout(parsed.format === 'csv' ? diffToCsv(diff) : `${JSON.stringify(diff, null, 2)}\n`);
  io.stderr(`${summaryLine(diff)}\n`);
  return DIFF_EXIT.ok;
}

/**
 * The diff's own options, plus the CLI's global ones (`--data-dir`, `--tag`, `--offline`), which
 * main.ts has already applied to the release source and which are accepted here so they may
 * follow the command.
 */
export function parseDiffArguments(args: readonly string[]): DiffArguments | 'help' {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string', default: 'json' },
        names: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'data-dir': { type: 'string' },
        tag: { type: 'string' },
        offline: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.from === undefined || values.from.trim() === '') throw new UsageError('--from TAG is required');
  if (values.to === undefined || values.to.trim() === '') throw new UsageError('--to TAG is required');
  const format = values.format ?? 'json';
  if (!isFormat(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not '${format}'`);
  return { from: values.from.trim(), to: values.to.trim(), format, namesFile: values.names ?? null };
}

/** One name per line; blank lines and `#` comments are skipped, spaces and `\r` trimmed. */
export function parseNamesFile(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** `3.58.0 -> 3.65.0: 61175 names compared, 6514 changed (status 6344, current_name 10, …)`. */
export function summaryLine(diff: ReleaseDiff): string {
  const kinds = CHANGE_KINDS.map((kind) => `${kind} ${diff.summary.by_kind[kind]}`).join(', ');
  return (
    `${diff.from} -> ${diff.to}: ${diff.summary.names_compared} names compared, ` +
    `${diff.summary.names_changed} changed (${kinds})`
  );
}

/**
 * Each tag from the same source; a tag's downloads go to its own directory beside the source's
 * (`<cache root>/<tag>`, as releaseSourceFromEnv lays them out), so two tags never share files.
 */
function loaderFrom(source: ReleaseSource): (tag: string) => Promise<Engine> {
  const cacheRoot = path.dirname(source.cacheDir);
  const loaded = new Map<string, Promise<Engine>>();
  return (tag) => {
    let engine = loaded.get(tag);
    if (engine === undefined) {
      engine = loadEngine({ ...source, tag, cacheDir: path.join(cacheRoot, tag) });
      loaded.set(tag, engine);
    }
    return engine;
  };
}

function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

function readText(file: string): Promise<string> {
  return readFileFromDisk(file, 'utf8');
}
