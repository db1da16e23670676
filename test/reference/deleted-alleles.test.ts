import { describe, expect, it } from 'vitest';
import { parseDeletedAlleles } from '../../src/reference/deleted-alleles.ts';
import { releaseText } from './release-files.ts';

describe('parseDeletedAlleles on the genuine Deleted_alleles.txt', () => {
  const text = releaseText('3.65.0', 'Deleted_alleles.txt');
  const parsed = parseDeletedAlleles(text);

  it('reads both sections of 3.65.0', () => {
    expect(parsed.version).toBe('3.65.0');
    expect(parsed.deleted).toHaveLength(197);
    expect(parsed.suffixChanges).toHaveLength(91);
    expect(parsed.deleted[0]).toEqual({
      id: 'HLA00965',
      name: 'A*0105N',
      description: 'Sequence shown to be identical to A*01:04:01:01N (July 2001)',
    });
    expect(parsed.suffixChanges.at(-1)?.name).toBe('MICA*171');
  });

  it('puts DRB1*15:13 in the suffix-change section', () => {
    expect(parsed.deleted.find((r) => r.name === 'DRB1*15:13')).toBeUndefined();
    expect(parsed.suffixChanges.find((r) => r.name === 'DRB1*15:13')).toEqual({
      id: 'HLA01541',
      name: 'DRB1*15:13',
      description: 'Suffix added to allele becoming DRB1*15:13Q (December 2024)',
    });
  });

  it('keeps long descriptions whole', () => {
    const c0312 = parsed.deleted.find((r) => r.name === 'C*03:12');
    expect(c0312?.description).toBe(
      'Sequence shown to contain errors and be identical to C*03:19 (January 2013). The sequence originally assigned to C*03:12 has been subsequently resubmitted and is now named C*03:307 (October 2015)',
    );
  });

  it('splits on the first two commas only (3.58.0 descriptions contain commas)', () => {
    const old = parseDeletedAlleles(releaseText('3.58.0', 'Deleted_alleles.txt'));
    expect(old.version).toBe('3.58.0');
    expect(old.deleted).toHaveLength(182);
    expect(old.suffixChanges).toHaveLength(85);
    const withCommas = old.deleted.filter((r) => r.description.includes(','));
    expect(withCommas.map((r) => r.name)).toEqual(['A*03:260', 'C*03:12', 'C*12:299N', 'DQA1*05013', 'MICA*071']);
    expect(withCommas[0]).toEqual({
      id: 'HLA15827',
      name: 'A*03:260',
      description:
        'Sequence shown to contain errors and be identical to A*03:284N (September 2017). The sequence originally assigned to A*03:260, has been subsequently resubmitted and is now named A*03:395 (July 2020)',
    });
  });

  it('refuses a wrong header in the second section, naming its line', () => {
    const lines = text.split('\n');
    expect(lines[206]).toBe('AlleleID,Allele,Description');
    lines[206] = 'AlleleID,Allele';
    expect(() => parseDeletedAlleles(lines.join('\n'))).toThrow(/^Deleted_alleles\.txt line 207: expected header "AlleleID,Allele,Description"/);
  });

  it('refuses a row with fewer than three fields, naming its line', () => {
    const edited = text.replace('HLA06674,A*01:34N,Sequence', 'HLA06674 A*01:34N Sequence');
    expect(() => parseDeletedAlleles(edited)).toThrow(/^Deleted_alleles\.txt line 10: /);
  });
});
