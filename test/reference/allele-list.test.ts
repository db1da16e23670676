import { describe, expect, it } from 'vitest';
import { parseAlleleList } from '../../src/reference/allele-list.ts';
import { ReleaseFileError } from '../../src/reference/errors.ts';
import { releaseText } from './release-files.ts';

describe('parseAlleleList on the genuine Allelelist.txt', () => {
  const text = releaseText('3.65.0', 'Allelelist.txt');

  it('reads release 3.65.0: 46,652 alleles, as the release documents', () => {
    const list = parseAlleleList(text);
    expect(list.version).toBe('3.65.0');
    expect(list.rows).toHaveLength(46_652);
    expect(list.rows[0]).toEqual({ id: 'HLA00001', name: 'A*01:01:01:01' });
    expect(list.rows[1]).toEqual({ id: 'HLA02169', name: 'A*01:01:01:02N' });
    expect(list.rows.at(-1)).toEqual({ id: 'HLA38463', name: 'TAP2*02:05' });
    expect(new Set(list.rows.map((r) => r.name)).size).toBe(46_652);
    expect(new Set(list.rows.map((r) => r.id)).size).toBe(46_652);
  });

  it('reads release 3.58.0', () => {
    const list = parseAlleleList(releaseText('3.58.0', 'Allelelist.txt'));
    expect(list.version).toBe('3.58.0');
    expect(list.rows).toHaveLength(41_433);
  });

  it('refuses a file without the "# version:" header', () => {
    const edited = text.replace('# version: IPD-IMGT/HLA 3.65.0\n', '');
    expect(() => parseAlleleList(edited)).toThrow(ReleaseFileError);
    expect(() => parseAlleleList(edited)).toThrow(/^Allelelist\.txt: no "# version/);
  });

  it('refuses a wrong column header, naming file and line', () => {
    const edited = text.replace('AlleleID,Allele\n', 'AlleleID;Allele\n');
    expect(() => parseAlleleList(edited)).toThrow(/^Allelelist\.txt line 7: expected header "AlleleID,Allele"/);
  });

  it('refuses a row with the wrong number of fields, naming its line', () => {
    const edited = text.replace('HLA14798,A*01:01:01:03\n', 'HLA14798,A*01:01:01:03,extra\n');
    let error: unknown;
    try {
      parseAlleleList(edited, 'Allelelist.txt');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReleaseFileError);
    expect((error as ReleaseFileError).file).toBe('Allelelist.txt');
    expect((error as ReleaseFileError).line).toBe(10);
  });
});
