import { describe, expect, it } from 'vitest';
import { parseGroups } from '../../src/reference/groups.ts';
import { releaseText } from './release-files.ts';

describe('parseGroups on the genuine wmda/hla_nom_g.txt', () => {
  const text = releaseText('3.65.0', 'wmda/hla_nom_g.txt');
  const g = parseGroups(text, 'wmda/hla_nom_g.txt');

  it('reads every row with full names', () => {
    expect(g.version).toBe('3.65.0');
    expect(g.rows).toHaveLength(27_516);
    const first = g.rows[0];
    expect(first.locus).toBe('A');
    expect(first.group).toBe('A*01:01:01G');
    expect(first.members.slice(0, 3)).toEqual(['A*01:01:01:01', 'A*01:01:01:02N', 'A*01:01:01:03']);
    expect(g.rows.at(-1)).toEqual({ locus: 'DOB', members: ['DOB*01:21'], group: null });
  });

  it('puts the null allele A*01:01:01:02N in A*01:01:01G', () => {
    const holder = g.rows.filter((r) => r.members.includes('A*01:01:01:02N'));
    expect(holder.map((r) => r.group)).toEqual(['A*01:01:01G']);
  });

  it('gives null for alleles in no G group', () => {
    expect(g.rows.find((r) => r.members[0] === 'A*01:01:02')).toEqual({ locus: 'A', members: ['A*01:01:02'], group: null });
  });

  it('names every group with its locus and a G', () => {
    const groups = g.rows.map((r) => r.group).filter((name): name is string => name !== null);
    expect(new Set(groups).size).toBe(784);
    expect(groups.every((name) => /^[A-Z0-9]+\*[0-9:]+G$/.test(name))).toBe(true);
    expect(g.rows.every((r) => r.members.every((m) => m.startsWith(`${r.locus}*`)))).toBe(true);
  });

  it('reads the P groups with the same layout', () => {
    const p = parseGroups(releaseText('3.65.0', 'wmda/hla_nom_p.txt'), 'wmda/hla_nom_p.txt');
    expect(p.rows).toHaveLength(19_286);
    const a0102 = p.rows.find((r) => r.group === 'A*01:02P');
    expect(a0102?.members).toEqual(['A*01:02:01:01', 'A*01:02:01:02', 'A*01:02:01:03', 'A*01:02:02', 'A*01:412', 'A*01:520']);
    expect(p.rows.every((r) => r.group === null || r.group.endsWith('P'))).toBe(true);
  });

  it('refuses a row with two fields, naming file and line', () => {
    const edited = text.replace('A*;01:01:02;\n', 'A*;01:01:02\n');
    expect(() => parseGroups(edited, 'wmda/hla_nom_g.txt')).toThrow(/^wmda\/hla_nom_g\.txt line 8: expected 3 ";"-separated fields/);
  });

  it('refuses a locus field without its star', () => {
    const edited = text.replace('A*;01:01:02;\n', 'A;01:01:02;\n');
    expect(() => parseGroups(edited, 'wmda/hla_nom_g.txt')).toThrow(/^wmda\/hla_nom_g\.txt line 8: /);
  });
});
