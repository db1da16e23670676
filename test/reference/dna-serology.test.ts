import { describe, expect, it } from 'vitest';
import { parseDnaSerology } from '../../src/reference/dna-serology.ts';
import { releaseText } from './release-files.ts';

describe('parseDnaSerology on the genuine wmda/rel_dna_ser.txt', () => {
  const text = releaseText('3.65.0', 'wmda/rel_dna_ser.txt');
  const parsed = parseDnaSerology(text);
  const byAllele = new Map(parsed.rows.map((r) => [r.allele, r.columns]));

  it('reads the 7-field layout of 3.65.0 as 5 columns', () => {
    expect(parsed.version).toBe('3.65.0');
    expect(parsed.columnCount).toBe(5);
    expect(parsed.rows).toHaveLength(46_652);
    expect(parsed.rows.every((r) => r.columns.length === 5)).toBe(true);
    expect(parsed.rows[0]).toEqual({ allele: 'A*01:01:01:01', columns: [['1'], [], [], [], ['1']] });
    expect(parsed.rows.at(-1)).toEqual({ allele: 'Y*03:01', columns: [['0'], [], [], [], []] });
  });

  it('splits /-lists and keeps raw codes', () => {
    expect(byAllele.get('A*01:01:38L')).toEqual([[], ['0', '1'], [], [], ['1']]);
    expect(byAllele.get('B*83:01')).toEqual([['?'], [], [], [], ['82']]);
    expect(byAllele.get('B*15:01:01:01')?.[0]).toEqual(['1501']);
  });

  it('reads the older 6-field layout of 3.58.0 as 4 columns', () => {
    const old = parseDnaSerology(releaseText('3.58.0', 'wmda/rel_dna_ser.txt'));
    expect(old.version).toBe('3.58.0');
    expect(old.columnCount).toBe(4);
    expect(old.rows).toHaveLength(41_433);
    expect(old.rows[0]).toEqual({ allele: 'A*01:01:01:01', columns: [['1'], [], [], []] });
  });

  it('refuses a row narrower than the others, naming its line', () => {
    const edited = text.replace('A*;01:01:01:03;1;;;;1\n', 'A*;01:01:01:03;1;;;\n');
    expect(() => parseDnaSerology(edited)).toThrow(/^wmda\/rel_dna_ser\.txt line 9: expected 7 ";"-separated fields like the first row, found 6/);
  });

  it('refuses an empty item in a list', () => {
    const edited = text.replace('A*;01:01:38L;;0/1;;;1\n', 'A*;01:01:38L;;0//1;;;1\n');
    expect(() => parseDnaSerology(edited)).toThrow(/^wmda\/rel_dna_ser\.txt line \d+: empty item in the possible list/);
  });
});
