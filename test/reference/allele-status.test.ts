import { describe, expect, it } from 'vitest';
import { parseAlleleStatus } from '../../src/reference/allele-status.ts';
import { releaseText } from './release-files.ts';

describe('parseAlleleStatus on the genuine Allele_status.txt', () => {
  const text = releaseText('3.65.0', 'Allele_status.txt');

  it('reads 3.65.0: one row per allele, confirmed when the column reads Confirmed', () => {
    const parsed = parseAlleleStatus(text);
    expect(parsed.version).toBe('3.65.0');
    expect(parsed.rows).toHaveLength(46_652);
    expect(parsed.rows[0]).toEqual({ allele: 'A*01:01:01:01', confirmed: true });
    expect(parsed.rows[1]).toEqual({ allele: 'A*01:01:01:02N', confirmed: false });
    expect(parsed.rows.at(-1)).toEqual({ allele: 'TAP2*02:05', confirmed: false });
    expect(parsed.rows.filter((r) => r.confirmed)).toHaveLength(13_655);
  });

  it('reads 3.58.0', () => {
    const parsed = parseAlleleStatus(releaseText('3.58.0', 'Allele_status.txt'));
    expect(parsed.version).toBe('3.58.0');
    expect(parsed.rows).toHaveLength(41_433);
    expect(parsed.rows.filter((r) => r.confirmed)).toHaveLength(12_283);
    expect(parsed.rows[0]).toEqual({ allele: 'A*01:01:01:01', confirmed: true });
  });

  it('refuses a wrong header', () => {
    const edited = text.replace('Allele,Cells,Groups,Confirmed,', 'Allele,Cells,Confirmed,Groups,');
    expect(() => parseAlleleStatus(edited)).toThrow(/^Allele_status\.txt line 7: expected header starting "Allele,Cells,Groups,Confirmed"/);
  });

  it('refuses a row with a missing field, naming its line', () => {
    const edited = text.replace('A*01:01:01:03,3,3,Confirmed,1,1098,Full,gDNA\n', 'A*01:01:01:03,3,3,Confirmed,1,1098,Full\n');
    expect(() => parseAlleleStatus(edited)).toThrow(/^Allele_status\.txt line 10: expected 8 ","-separated fields/);
  });
});
