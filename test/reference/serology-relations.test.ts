import { describe, expect, it } from 'vitest';
import { parseSerologyRelations } from '../../src/reference/serology-relations.ts';
import { releaseText } from './release-files.ts';

describe('parseSerologyRelations on the genuine wmda/rel_ser_ser.txt', () => {
  const text = releaseText('3.65.0', 'wmda/rel_ser_ser.txt');
  const parsed = parseSerologyRelations(text);
  const find = (locus: string, antigen: string) => parsed.rows.find((r) => r.locus === locus && r.antigen === antigen);

  it('reads every relation of 3.65.0', () => {
    expect(parsed.version).toBe('3.65.0');
    expect(parsed.rows).toHaveLength(79);
    expect(new Set(parsed.rows.map((r) => r.locus))).toEqual(new Set(['A', 'B', 'Cw', 'DQ', 'DR', 'Dw']));
    // The last line has no final newline.
    expect(parsed.rows.at(-1)).toEqual({ locus: 'Dw', antigen: '7', splits: ['11', '17'], associated: [] });
  });

  it('lists 1501 under B 62 and the splits of B 15', () => {
    expect(find('B', '62')?.associated).toContain('1501');
    expect(find('B', '15')).toEqual({ locus: 'B', antigen: '15', splits: ['62', '63', '75', '76', '77'], associated: [] });
    expect(find('B', '21')).toEqual({ locus: 'B', antigen: '21', splits: ['49', '50'], associated: ['4005'] });
    expect(find('DR', '15')?.associated).toEqual(['1501', '1504']);
  });

  it('reads 3.58.0, whose associated codes were short', () => {
    const old = parseSerologyRelations(releaseText('3.58.0', 'wmda/rel_ser_ser.txt'));
    expect(old.rows).toHaveLength(31);
    expect(old.rows[0]).toEqual({ locus: 'A', antigen: '2', splits: [], associated: ['203', '210'] });
  });

  it('refuses a row with three fields, naming its line', () => {
    const edited = text.replace('A;3;;0301/0305/0323\n', 'A;3;0301/0305/0323\n');
    expect(() => parseSerologyRelations(edited)).toThrow(/^wmda\/rel_ser_ser\.txt line 8: expected 4 ";"-separated fields/);
  });
});
