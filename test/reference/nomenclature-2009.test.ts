import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNomenclature2009 } from '../../src/reference/nomenclature-2009.ts';
import { releaseText, SHARED_IMGTHLA } from './release-files.ts';

describe('parseNomenclature2009 on the genuine Nomenclature_2009.txt', () => {
  const text = releaseText('3.65.0', 'Nomenclature_2009.txt');
  const rows = parseNomenclature2009(text);
  const byLegacy = new Map(rows.map((r) => [r.legacy, r.current]));

  it('reads every conversion', () => {
    expect(rows).toHaveLength(4_826);
    expect(rows[0]).toEqual({ legacy: 'A*01010101', current: 'A*01:01:01:01' });
    expect(rows.at(-1)).toEqual({ legacy: 'V*01010103', current: 'V*01:01:01:03' });
    expect(byLegacy.size).toBe(rows.length);
  });

  it('maps None to null and renames Cw to C', () => {
    expect(byLegacy.get('A*0105N')).toBeNull();
    expect(byLegacy.get('Cw*010201')).toBe('C*01:02:01');
    expect(rows.filter((r) => r.current === null)).toHaveLength(83);
    expect(byLegacy.get('MICA*001')).toBe('MICA*001');
  });

  it('reads the copy in extra/ identically (the table has not changed since 2010)', () => {
    const extra = readFileSync(path.join(SHARED_IMGTHLA, 'extra', 'Nomenclature_2009.txt'), 'utf8');
    expect(parseNomenclature2009(extra)).toEqual(rows);
  });

  it('refuses a file without its header rule', () => {
    const edited = text.replace('============        =====================\n', '');
    expect(() => parseNomenclature2009(edited)).toThrow(/^Nomenclature_2009\.txt line 2: expected the "====" rule/);
  });

  it('refuses a row with three columns, naming its line', () => {
    const edited = text.replace('A*010103            A*01:01:03\n', 'A*010103            A*01:01:03   A*01:01:04\n');
    expect(() => parseNomenclature2009(edited)).toThrow(/^Nomenclature_2009\.txt line 6: /);
  });
});
