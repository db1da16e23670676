import { rm, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReleaseFileError, ReleaseLoadError } from '../../src/reference/errors.ts';
import { describeLoadReport, loadRelease, type LoadedRelease } from '../../src/reference/load-release.ts';
import { copyMirror, fixChecksum, makeTemp, MIRROR_3650, removeTemp, SHARED_IMGTHLA } from './release-files.ts';

/** An empty cache per test file, so a developer's own `.cache/` never changes what is loaded. */
let emptyCache: string;
beforeAll(async () => {
  emptyCache = path.join(await makeTemp(), 'cache');
});
afterAll(async () => removeTemp(emptyCache));

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the load to fail');
}

describe('loadRelease from the 3.65.0 mirror, offline', () => {
  let loaded: LoadedRelease;
  beforeAll(async () => {
    loaded = await loadRelease({ tag: 'v3.65.0-alpha', dataDir: MIRROR_3650, cacheDir: emptyCache, offline: true });
  });

  it('fills every table', () => {
    const { tables } = loaded;
    expect(tables.version).toBe('3.65.0');
    expect(tables.tag).toBe('v3.65.0-alpha');
    expect(tables.alleles).toHaveLength(46_652);
    expect(tables.deleted).toHaveLength(197 + 91);
    expect(tables.deleted.find((r) => r.name === 'DRB1*15:13')?.description).toMatch(/becoming DRB1\*15:13Q/);
    expect(tables.conversions).toHaveLength(4_826);
    expect(tables.gGroups).toHaveLength(27_516);
    expect(tables.pGroups).toHaveLength(19_286);
    expect(tables.dnaSerology).toHaveLength(46_652);
    expect(tables.dnaSerology[0].columns).toHaveLength(5);
    expect(tables.serologyRelations).toHaveLength(79);
    expect(tables.alleleStatus).toHaveLength(46_652);
    expect(tables.history).toBeNull();
  });

  it('names the missing optional history file and nothing else', () => {
    expect(loaded.tables.missingOptional).toEqual(['Allelelist_history.txt']);
    expect(loaded.report.missingOptional).toEqual(['Allelelist_history.txt']);
  });

  it('hands out immutable tables', () => {
    expect(Object.isFrozen(loaded.tables)).toBe(true);
    expect(Object.isFrozen(loaded.tables.alleles)).toBe(true);
    expect(() => (loaded.tables.alleles as unknown[]).push({})).toThrow(TypeError);
  });

  it('reports where each file came from, its checksum and the timings', () => {
    const { report } = loaded;
    expect(report.version).toBe('3.65.0');
    expect(report.mirrorDir).toBe(MIRROR_3650);
    expect(report.files.map((f) => f.file).sort()).toEqual(
      [
        'Allele_status.txt',
        'Allelelist.txt',
        'Deleted_alleles.txt',
        'Nomenclature_2009.txt',
        'md5checksum.txt',
        'wmda/hla_nom_g.txt',
        'wmda/hla_nom_p.txt',
        'wmda/md5checksum.txt',
        'wmda/rel_dna_ser.txt',
        'wmda/rel_ser_ser.txt',
      ].sort(),
    );
    expect(report.files.every((f) => f.origin === 'mirror')).toBe(true);
    expect(report.files.find((f) => f.file === 'Allelelist.txt')).toMatchObject({
      location: path.join(MIRROR_3650, 'Allelelist.txt'),
      bytes: 954_077,
      md5: 'b9b22a0394436db7362ba6aa85a05855',
    });
    expect(report.warnings).toEqual([]);
    expect(report.timings.totalMs).toBeGreaterThan(0);
    const log = describeLoadReport(report);
    expect(log[0]).toMatch(/^IPD-IMGT\/HLA release 3\.65\.0 \(tag v3\.65\.0-alpha\) loaded in /);
    expect(log.join('\n')).toContain('missing optional files (the facts they feed are unknown): Allelelist_history.txt');
  });

  it('reports its timings (speed itself is measured by bench/engine.ts, not asserted here)', () => {
    expect(loaded.report.timings.parseMs).toBeGreaterThan(0);
    expect(loaded.report.timings.totalMs).toBeGreaterThanOrEqual(loaded.report.timings.parseMs);
  });
});

describe('loadRelease from a folder of releases', () => {
  it('picks 3.65.0 for v3.65.0-alpha and 3.58.0 for v3.58.0-alpha', async () => {
    const current = await loadRelease({ tag: 'v3.65.0-alpha', dataDir: SHARED_IMGTHLA, cacheDir: emptyCache, offline: true });
    expect(current.report.mirrorDir).toBe(path.join(SHARED_IMGTHLA, '3.65.0'));
    expect(current.tables.version).toBe('3.65.0');
    expect(current.tables.alleles).toHaveLength(46_652);

    const older = await loadRelease({ tag: 'v3.58.0-alpha', dataDir: SHARED_IMGTHLA, cacheDir: emptyCache, offline: true });
    expect(older.report.mirrorDir).toBe(path.join(SHARED_IMGTHLA, '3.58.0'));
    expect(older.tables.version).toBe('3.58.0');
    expect(older.tables.tag).toBe('v3.58.0-alpha');
    expect(older.tables.alleles).toHaveLength(41_433);
    expect(older.tables.dnaSerology[0].columns).toHaveLength(4);
    expect(older.tables.missingOptional).toEqual(['Allelelist_history.txt']);
  });

  it('refuses a release the folder does not hold, naming the first missing file', async () => {
    const error = await rejection(loadRelease({ tag: 'v3.66.0-alpha', dataDir: SHARED_IMGTHLA, cacheDir: emptyCache, offline: true }));
    expect(error).toBeInstanceOf(ReleaseLoadError);
    expect((error as ReleaseLoadError).code).toBe('missing_file');
    expect(error.message).toContain('md5checksum.txt');
    expect(error.message).toContain(path.join(SHARED_IMGTHLA, '3.66.0'));
  });
});

describe('loadRelease refuses a damaged mirror', () => {
  let copy: string;
  beforeAll(async () => {
    copy = await copyMirror('3.65.0');
  });
  afterAll(async () => removeTemp(copy));

  async function withEditedFile(file: string, edit: (content: Buffer) => Buffer, run: () => Promise<void>): Promise<void> {
    const location = path.join(copy, ...file.split('/'));
    const original = await readFile(location);
    try {
      await writeFile(location, edit(Buffer.from(original)));
      await run();
    } finally {
      await writeFile(location, original);
    }
  }

  it('loads the untouched copy', async () => {
    const { tables } = await loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true });
    expect(tables.alleles).toHaveLength(46_652);
  });

  it('refuses a file with one byte changed, naming the file, both sums and the tag', async () => {
    await withEditedFile(
      'wmda/hla_nom_p.txt',
      (content) => {
        const at = content.indexOf('01:02P');
        content[at + 4] = '3'.charCodeAt(0); // 01:02P → 01:03P
        return content;
      },
      async () => {
        const error = await rejection(loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true }));
        expect(error).toBeInstanceOf(ReleaseLoadError);
        expect((error as ReleaseLoadError).code).toBe('checksum_mismatch');
        expect((error as ReleaseLoadError).file).toBe('wmda/hla_nom_p.txt');
        expect(error.message).toMatch(/^wmda\/hla_nom_p\.txt: MD5 [0-9a-f]{32} of .* differs from 7ceda6c89a7b5f9d4f44256e2d691fb2 listed by release v3\.65\.0-alpha/);
      },
    );
  });

  it('refuses a changed optional file too', async () => {
    await withEditedFile(
      'Allele_status.txt',
      (content) => Buffer.from(content.toString('utf8').replace('A*01:01:01:02N,1,1,Unconfirmed', 'A*01:01:01:02N,1,1,Confirmed')),
      async () => {
        const error = await rejection(loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true }));
        expect((error as ReleaseLoadError).code).toBe('checksum_mismatch');
        expect(error.message).toMatch(/^Allele_status\.txt: MD5 /);
      },
    );
  });

  it('refuses a missing required file, naming it', async () => {
    const location = path.join(copy, 'wmda', 'rel_ser_ser.txt');
    const original = await readFile(location);
    await rm(location);
    try {
      const error = await rejection(loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true }));
      expect(error).toBeInstanceOf(ReleaseLoadError);
      expect((error as ReleaseLoadError).code).toBe('missing_file');
      expect(error.message).toMatch(/^required release file wmda\/rel_ser_ser\.txt of v3\.65\.0-alpha is missing/);
      expect(error.message).toContain('offline');
    } finally {
      await writeFile(location, original);
    }
  });

  it('degrades without the optional status file', async () => {
    const location = path.join(copy, 'Allele_status.txt');
    const original = await readFile(location);
    await rm(location);
    try {
      const { tables, report } = await loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true });
      expect(tables.alleleStatus).toBeNull();
      expect(tables.missingOptional).toEqual(['Allelelist_history.txt', 'Allele_status.txt']);
      expect(report.files.map((f) => f.file)).not.toContain('Allele_status.txt');
    } finally {
      await writeFile(location, original);
    }
  });

  it('refuses a file that does not parse even when its checksum was fixed, naming file and line', async () => {
    const listPath = path.join(copy, 'wmda', 'md5checksum.txt');
    const list = await readFile(listPath);
    try {
      await withEditedFile(
        'wmda/hla_nom_g.txt',
        (content) => Buffer.from(content.toString('utf8').replace('A*;01:01:02;\n', 'A*;01:01:02\n')),
        async () => {
          await fixChecksum(copy, 'wmda/hla_nom_g.txt');
          const error = await rejection(loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true }));
          expect(error).toBeInstanceOf(ReleaseFileError);
          expect((error as ReleaseFileError).file).toBe('wmda/hla_nom_g.txt');
          expect((error as ReleaseFileError).line).toBe(8);
          expect(error.message).toMatch(/^wmda\/hla_nom_g\.txt line 8: expected 3 ";"-separated fields/);
        },
      );
    } finally {
      await writeFile(listPath, list);
    }
  });

  it('refuses a file the checksum list does not cover', async () => {
    const listPath = path.join(copy, 'md5checksum.txt');
    const list = await readFile(listPath, 'utf8');
    await writeFile(listPath, list.replace(/^MD5 \(Deleted_alleles\.txt\).*\n/m, ''));
    try {
      const error = await rejection(loadRelease({ dataDir: copy, cacheDir: emptyCache, offline: true }));
      expect((error as ReleaseLoadError).code).toBe('unverifiable');
      expect(error.message).toMatch(/^Deleted_alleles\.txt .* has no entry in the MD5 lists of release v3\.65\.0-alpha/);
    } finally {
      await writeFile(listPath, list);
    }
  });
});

describe('loadRelease refuses files of another release', () => {
  it('refuses the genuine 3.58.0 files for tag v3.65.0-alpha', async () => {
    const error = await rejection(loadRelease({ tag: 'v3.65.0-alpha', dataDir: path.join(SHARED_IMGTHLA, '3.58.0'), cacheDir: emptyCache, offline: true }));
    expect(error).toBeInstanceOf(ReleaseLoadError);
    expect((error as ReleaseLoadError).code).toBe('version_mismatch');
    expect(error.message).toMatch(/^Allelelist\.txt is release 3\.58\.0 .* but tag v3\.65\.0-alpha names release 3\.65\.0/);
  });
});
