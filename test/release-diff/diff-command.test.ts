/** `hla diff`: arguments, both formats, the names file, and failures with their exit codes. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIFF_USAGE, runDiffCommand, type DiffCommandContext } from '../../src/cli/diff-command.ts';
import { runCli } from '../../src/cli/main.ts';
import { CSV_COLUMNS, listedChanges } from '../../src/release-diff/csv.ts';
import { diffReleases } from '../../src/release-diff/diff.ts';
import type { ReleaseDiff } from '../../src/release-diff/types.ts';
import { defaultReleaseSource } from '../../src/reference/release-source.ts';
import { SHARED_DATA_DIR, TAG_OF, loadTestEngine, type TestVersion } from '../support/engine.ts';

let fullDiff: ReleaseDiff;

beforeAll(async () => {
  fullDiff = diffReleases(await loadTestEngine('3.58.0'), await loadTestEngine('3.65.0'));
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  loads: string[];
}

/** Runs the command with the test releases (already loaded) and an in-memory file system. */
async function run(args: string[], files: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const loads: string[] = [];
  const context: DiffCommandContext = {
    io: { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    loadEngine: async (tag) => {
      loads.push(tag);
      const version = (Object.keys(TAG_OF) as TestVersion[]).find((v) => TAG_OF[v] === tag);
      if (version === undefined) throw new Error(`no release ${tag} in the test mirror`);
      return loadTestEngine(version);
    },
    readFile: async (file: string) => {
      if (!(file in files)) throw Object.assign(new Error(`ENOENT: open '${file}'`), { code: 'ENOENT' });
      return files[file];
    },
  };
  const code = await runDiffCommand(args, context);
  return { code, stdout, stderr, loads };
}

describe('hla diff: usage', () => {
  it('prints its usage for --help, without loading anything', async () => {
    const result = await run(['--help']);
    expect(result).toMatchObject({ code: 0, stdout: DIFF_USAGE, loads: [] });
  });

  it.each([
    [['--to', '3.65.0'], '--from TAG is required'],
    [['--from', '3.58.0'], '--to TAG is required'],
    [['--from', '3.58.0', '--to', '3.65.0', '--format', 'xml'], '--format must be one of json, csv'],
    [['--from', '3.58.0', '--to', '3.65.0', '--colour'], "Unknown option '--colour'"],
    [['--from', '3.58.0', '--to', '3.65.0', 'extra'], "unexpected argument 'extra'"],
  ])('exits 2 on %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: hla diff');
    expect(result.stdout).toBe('');
    expect(result.loads).toEqual([]);
  });

  it('accepts the global options after the command (main.ts has applied them)', async () => {
    const result = await run(['--from', '3.58.0', '--to', '3.65.0', '--offline', '--data-dir', 'x', '--names', 'n'], {
      n: 'A*01:01\n',
    });
    expect(result.code).toBe(0);
  });
});

describe('hla diff: output', () => {
  it('prints the JSON diff by default, and a summary line on stderr', async () => {
    const result = await run(['diff', '--from', '3.58.0', '--to', 'v3.65.0-alpha']);
    expect(result.code).toBe(0);
    expect(result.loads).toEqual(['v3.58.0-alpha', 'v3.65.0-alpha']);
    expect(JSON.parse(result.stdout)).toEqual(fullDiff);
    expect(result.stderr).toMatch(/^3\.58\.0 -> 3\.65\.0: \d+ names compared, \d+ changed \(status \d+, /);
  });

  it('prints one CSV row per listed change, in the JSON order', async () => {
    const result = await run(['--from', 'v3.58.0-alpha', '--to', '3.65.0', '--format', 'csv']);
    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual(CSV_COLUMNS);
    const listed = listedChanges(fullDiff);
    expect(rows).toHaveLength(listed.length);
    expect(rows.map((row) => row.name)).toEqual(listed.map((change) => change.name));
    const deleted = rows.find((row) => row.name === 'C*15:05:02:02');
    expect(deleted).toMatchObject({
      locus: 'C',
      kind: 'status',
      from: 'valid',
      to: 'deleted',
      from_successor: '',
      to_successor: 'C*15:05:02:01',
      to_current_name: 'C*15:05:02:01',
      to_flags: 'deprecated_name',
    });
  });

  it('restricts the diff to the names of --names (one a line, # comments and blanks skipped)', async () => {
    const file = '# my typings\nC*15:05:02:02\r\n\nA*01:01:01:01\n  B*15:732  \n';
    const result = await run(['--from', '3.58.0', '--to', '3.65.0', '--names', 'typings.txt'], { 'typings.txt': file });
    expect(result.code).toBe(0);
    const diff = JSON.parse(result.stdout) as ReleaseDiff;
    expect(diff.scope).toBe('given_names');
    expect(diff.summary.names_compared).toBe(3);
    expect(listedChanges(diff).map((change) => change.name)).toEqual(['B*15:732', 'C*15:05:02:02']);
  });

  it('loads both releases from the release source and reads --names from disk by default', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hla-diff-'));
    const file = path.join(dir, 'names.txt');
    await writeFile(file, 'DRB1*15:13\n');
    let stdout = '';
    const source = { ...defaultReleaseSource('v3.65.0-alpha', dir), dataDir: SHARED_DATA_DIR, offline: true };
    const code = await runDiffCommand(['--from', '3.58.0', '--to', '3.65.0', '--names', file, '--format', 'csv'], {
      io: { stdout: (text) => (stdout += text), stderr: () => {} },
      source,
    });
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(stdout).toContain('DRB1*15:13,DRB1,status,valid,deleted,');
  });

  it('runs as `hla diff` through the CLI main', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hla-diff-'));
    const file = path.join(dir, 'names.txt');
    await writeFile(file, 'B*35:32:03\nA*01:01:01:01\n');
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      ['--data-dir', SHARED_DATA_DIR, '--offline', 'diff', '--from', '3.58.0', '--to', '3.65.0', '--names', file],
      {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        readStdin: async () => '',
        env: { HLA_SERVICE_CACHE_DIR: path.join(dir, 'cache') },
      },
    );
    expect(stderr).toMatch(/^3\.58\.0 -> 3\.65\.0: 2 names compared, 1 changed/);
    expect(code).toBe(0);
    const diff = JSON.parse(stdout) as ReleaseDiff;
    expect(diff.changes.status.map((change) => [change.name, change.to.successor])).toEqual([['B*35:32:03', 'B*35:654']]);
  });
});

describe('hla diff: failures', () => {
  it('exits 3 when a release cannot be loaded', async () => {
    const result = await run(['--from', '3.58.0', '--to', '9.99.0']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('hla diff: release v9.99.0-alpha could not be loaded: no release v9.99.0-alpha in the test mirror\n');
  });

  it('exits 2 when the names file cannot be read, before loading any release', async () => {
    const result = await run(['--from', '3.58.0', '--to', '3.65.0', '--names', 'missing.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('hla diff: cannot read missing.txt: ENOENT\n');
    expect(result.loads).toEqual([]);
  });
});
