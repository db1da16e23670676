/**
 * Every worked example of DOMAIN_RULES §2–§7, on the genuine 3.65.0 release.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { splitLegacyDigits } from '../../src/nomenclature/grammar.ts';
import { successorInDescription } from '../../src/nomenclature/successor.ts';
import { loadTestEngine } from '../support/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
});

const normalize = (name: string) => engine.normalizeOne(name);
const status = (name: string) => engine.classify(name).status;
const tokensOf = (text: string) => engine.verify(text).tokens.map((t) => t.token);

describe('§2 name grammar', () => {
  it('accepts an optional HLA- prefix and 1 to 4 fields', () => {
    expect(normalize('HLA-A*01:01:01:01').current_name).toBe('A*01:01:01:01');
    expect(normalize('A*01').current_name).toBe('A*01');
    expect(normalize('MICA*001').current_name).toBe('MICA*001');
  });

  it('a one-digit field or a trailing colon is not a name', () => {
    expect(normalize('A*2:01').current_name).toBe('UNRESOLVABLE');
    expect(normalize('A*02:').current_name).toBe('UNRESOLVABLE');
    expect(tokensOf('see A*2:01 and A*02: here')).toEqual([]);
  });

  it('splits even colon-less legacy names into two-digit fields', () => {
    expect(splitLegacyDigits('A', '0101', '')).toBe('A*01:01');
    expect(splitLegacyDigits('Cw', '0702', '')).toBe('C*07:02');
    expect(splitLegacyDigits('A', '020101', 'N')).toBe('A*02:01:01N');
    expect(splitLegacyDigits('A', '01011', '')).toBeNull();
  });

  it('converts legacy names: A*0101 → A*01:01, Cw*0702 → C*07:02', () => {
    expect(normalize('A*0101')).toMatchObject({ current_name: 'A*01:01', flags: ['deprecated_name'] });
    expect(normalize('Cw*0702')).toMatchObject({ current_name: 'C*07:02', flags: ['deprecated_name'] });
  });

  it('an odd digit count (A*01011) has no colon form: without history it cannot be placed', () => {
    expect(normalize('A*01011').current_name).toBe('UNRESOLVABLE');
    expect(status('A*01011')).toBe('hallucinated');
  });

  it('colon-style Cw*07:02 means C*07:02; cw*, CW* and lower-case loci are not names', () => {
    expect(normalize('Cw*07:02')).toMatchObject({ current_name: 'C*07:02', flags: ['deprecated_name'] });
    for (const bad of ['cw*07:02', 'CW*07:02', 'a*02:01']) {
      expect(normalize(bad).current_name).toBe('UNRESOLVABLE');
    }
    // Lower-case is never allele-shaped; `CW` is upper-case letters, so it is a token, but no name.
    expect(tokensOf('cw*07:02 a*02:01')).toEqual([]);
    expect(engine.classify('CW*07:02').status).toBe('hallucinated');
  });

  it('G and P group names; a 4-field name with G is not group-shaped', () => {
    expect(status('A*02:01:01G')).toBe('group');
    expect(status('DPB1*04:01P')).toBe('group');
    expect(status('A*01:01:01:01G')).not.toBe('fabricated_group');
    expect(status('A*01:01:01:01G')).not.toBe('group');
  });

  it('XX stands for the first-field prefix', () => {
    expect(normalize('A*02:XX')).toMatchObject({ current_name: 'A*02', allele_2field: 'A*02', flags: ['xx_code'] });
  });

  it('MAC codes are recognised, never expanded', () => {
    for (const mac of ['A*02:AB', 'DRB1*04:BNDC']) {
      expect(normalize(mac)).toMatchObject({ current_name: 'UNRESOLVABLE', flags: ['mac_code'] });
      expect(status(mac)).toBe('mac_code');
    }
  });

  it('lg names are the 2-field name', () => {
    expect(normalize('A*02:01g')).toMatchObject({ current_name: 'A*02:01', flags: ['lg_notation'] });
  });

  it('KIR names are out of scope, never fabricated HLA names', () => {
    const verdict = engine.verify('KIR2DL1*0010101, KIR3DL1*001 and 2DS4*00101');
    expect(verdict.tokens.map((t) => [t.token, t.status])).toEqual([
      ['2DS4*00101', 'out_of_scope'],
      ['KIR2DL1*0010101', 'out_of_scope'],
      ['KIR3DL1*001', 'out_of_scope'],
    ]);
    expect(verdict.counts.hallucinated).toBe(0);
  });

  it('serology (A2, Cw6, DR4) is never an allele token', () => {
    expect(tokensOf('A2, Cw6 and DR4 are antigens')).toEqual([]);
  });
});

describe('§3 the resolver', () => {
  it.each([
    ['DRB1*15:13', 'DRB1*15:13Q'],
    ['A*02:1045', 'A*02:1045Q'],
    ['C*03:12', 'C*03:19'],
    ['A*0105N', 'A*01:04:01:01N'],
    ['B*1308Q', 'B*13:08'],
  ])('deletion runs before prefix validity: %s → %s with deprecated_name everywhere', (name, successor) => {
    const row = normalize(name);
    expect(row.current_name).toBe(successor);
    expect(row.flags).toContain('deprecated_name');
    const verdict = engine.classify(name);
    expect(verdict.status).toBe('deleted');
    expect(verdict.successor).toBe(successor);
    expect(verdict.flags).toContain('deprecated_name');
    const lookup = engine.lookup(name);
    expect(lookup).toMatchObject({ found: true, facts: { status: 'deleted', successor } });
  });

  it('rule order: MAC before XX, XX before prefixes, groups before names', () => {
    expect(engine.resolve('A*02:XX').flags).toEqual(['xx_code']);
    expect(engine.resolve('A*02:AB').outcome).toBe('mac_code');
    expect(engine.resolve('A*02:01:01G').outcome).toBe('group');
  });

  it('an unknown name is nonexistent', () => {
    expect(normalize('A*99:99')).toMatchObject({ current_name: 'UNRESOLVABLE', flags: ['nonexistent_allele'] });
  });
});

describe('§3.1 successor of a deleted name', () => {
  it.each([
    ['DRB1*1171', 'DRB1*11:02:01:01'],
    ['A*11:53', 'A*11:02:01:01'],
    ['B*07:02:06', 'B*07:436'],
    ['B*35:32:03', 'B*35:654'],
    ['C*03:12', 'C*03:19'],
    ['H*02:17', 'H*02:08:01:01'],
    ['Cw*0422', 'C*04:15:02'],
  ])('%s → %s', (name, successor) => {
    expect(normalize(name).current_name).toBe(successor);
    expect(engine.classify(name).successor).toBe(successor);
  });

  it('follows chains: Cw*0422 "identical to Cw*0421", which was "renamed C*04:15:02"', () => {
    expect(successorInDescription('Cw*0422', 'Sequence named in error and shown to be  identical to Cw*0421 (August 2006)')).toBe(
      'Cw*0421',
    );
    expect(normalize('Cw*0421').current_name).toBe('C*04:15:02');
    expect(normalize('Cw*0422').current_name).toBe('C*04:15:02');
  });

  it('no successor is a legitimate answer', () => {
    for (const name of ['A*2401', 'A*02:100', 'B*15:100']) {
      expect(normalize(name)).toMatchObject({
        current_name: 'UNRESOLVABLE',
        flags: ['deprecated_name', 'nonexistent_allele'],
      });
      expect(engine.classify(name).status).toBe('deleted');
      expect(engine.classify(name).successor).toBeUndefined();
      expect(engine.lookup(name)).toMatchObject({ found: true, facts: { status: 'deleted', successor: null } });
    }
  });

  it('reads the rename phrases of free English', () => {
    expect(successorInDescription('X*01:01', 'Sequence renamed and extended to X*01:02 (2020)')).toBe('X*01:02');
    expect(successorInDescription('X*01:01', 'Sequence is the same as X*01:03 (2020)')).toBe('X*01:03');
    expect(successorInDescription('X*01:01', 'Allele deleted as partial of newly named X*01:04')).toBe('X*01:04');
    expect(successorInDescription('E*01:130', 'Suffix added to allele becoming E*01:130 (September 2022)')).toBeNull();
    expect(successorInDescription('A*2401', 'Sequence shown to contain errors (March 1995)')).toBeNull();
  });
});

describe('§3.2 prefixes', () => {
  it('A*01:01 covers A*01:01:01:01 but never A*01:010', () => {
    const facts = engine.lookup('A*01:01');
    expect(facts.found && facts.facts.status === 'valid_prefix' && facts.facts.members_sample).toContain('A*01:01:01:01');
    const members = engine.lookup('A*01:01');
    if (!members.found || members.facts.status !== 'valid_prefix') throw new Error('expected a prefix');
    expect(members.facts.members_sample.every((m) => m.startsWith('A*01:01:') || m === 'A*01:01')).toBe(true);
    expect(normalize('A*01:010').current_name).toBe('UNRESOLVABLE');
  });

  it('a prefix with a suffix is valid only if every member carries it', () => {
    expect(normalize('A*24:09N').current_name).toBe('A*24:09N');
    expect(normalize('A*01:04N').current_name).toBe('A*01:04N');
    expect(normalize('A*01:01N').current_name).toBe('UNRESOLVABLE');
  });
});

describe('§4 verify', () => {
  it('tokenizer boundaries', () => {
    expect(tokensOf('A*02:675N:')).toEqual([]);
    expect(tokensOf('xA*02:01')).toEqual([]);
    expect(tokensOf('B*44:02/B*44:27')).toEqual(['B*44:02', 'B*44:27']);
    expect(tokensOf('(A*01:01)+[A*02:01]; A*03:01, A*11:01→A*24:02—A*26:01\nA*29:02')).toEqual([
      'A*01:01',
      'A*02:01',
      'A*03:01',
      'A*11:01',
      'A*24:02',
      'A*26:01',
      'A*29:02',
    ]);
  });

  it('one row per distinct token after removing HLA-, with occurrences', () => {
    const r = engine.verify('HLA-A*02:01 and A*02:01 and HLA-A*02:01');
    expect(r.tokens).toHaveLength(1);
    expect(r.tokens[0]).toMatchObject({ token: 'A*02:01', status: 'valid', occurrences: 3 });
  });

  it('statuses decided by the resolver, with all seven count keys', () => {
    const r = engine.verify(
      'A*01:01:01:01 A*0101 A*02:XX A*02:01g A*02:01:01G A*99:01:01G DRB1*15:13 A*2401 A*02:AB KIR2DL1*001 A*99:99',
    );
    const byToken = Object.fromEntries(r.tokens.map((t) => [t.token, t.status]));
    expect(byToken).toEqual({
      'A*01:01:01:01': 'valid',
      'A*0101': 'valid',
      'A*02:XX': 'valid',
      'A*02:01g': 'valid',
      'A*02:01:01G': 'group',
      'A*99:01:01G': 'fabricated_group',
      'DRB1*15:13': 'deleted',
      'A*2401': 'deleted',
      'A*02:AB': 'mac_code',
      'KIR2DL1*001': 'out_of_scope',
      'A*99:99': 'hallucinated',
    });
    expect(Object.keys(r.counts).sort()).toEqual(
      ['deleted', 'fabricated_group', 'group', 'hallucinated', 'mac_code', 'out_of_scope', 'valid'].sort(),
    );
    expect(r.clean).toBe(false);
  });

  it('a legacy name that resolves is valid with deprecated_name; one whose colon form is deleted is deleted', () => {
    expect(engine.classify('A*0101')).toMatchObject({ status: 'valid', flags: ['deprecated_name'] });
    expect(engine.classify('DRB1*1513')).toMatchObject({ status: 'deleted', successor: 'DRB1*15:13Q' });
  });

  it('clean is true only without hallucinated, fabricated_group and deleted tokens', () => {
    expect(engine.verify('A*02:01, B*07:02 and a MAC A*02:AB').clean).toBe(true);
    expect(engine.verify('A*02:01 and A*02:1045').clean).toBe(false);
    expect(engine.verify('no alleles here').clean).toBe(true);
  });

  it('valid and deleted rows that resolve carry current_2field, g_group and flags; every row has a note', () => {
    const r = engine.verify('A*01:01:01:01 A*11:53 A*99:99');
    for (const t of r.tokens) expect(t.note.length).toBeGreaterThan(0);
    expect(r.tokens.find((t) => t.token === 'A*11:53')).toMatchObject({
      current_2field: 'A*11:02',
      g_group: 'A*11:02:01G',
      flags: ['deprecated_name'],
    });
  });
});

describe('§5 normalize', () => {
  it.each([
    ['A*01:01:01:02N', 'A*01:01'],
    ['A*01:04:01:01N', 'A*01:04N'],
    ['C*02:02:02:74Q', 'C*02:02'],
    ['DQB1*02:225Q', 'DQB1*02:225Q'],
    ['A*02:XX', 'A*02'],
  ])('allele_2field of %s is %s', (name, twoField) => {
    expect(normalize(name).allele_2field).toBe(twoField);
  });

  it('null alleles are in G groups; a G group name maps to itself', () => {
    expect(normalize('A*01:01:01:02N').g_group).toBe('A*01:01:01G');
    expect(normalize('A*01:01:01G').g_group).toBe('A*01:01:01G');
  });

  it('g_group is AMBIGUOUS when members span groups, NONE when in no group', () => {
    expect(normalize('A*02').g_group).toBe('AMBIGUOUS');
    expect(normalize('A*01:01:02').g_group).toBe('NONE');
  });

  it('null_allele when every member ends in N; Q, L, S raise no flag', () => {
    expect(normalize('C*03:755')).toMatchObject({ current_name: 'C*03:755', allele_2field: 'C*03:755N', flags: ['null_allele'] });
    expect(normalize('C*02:02:02:74Q').flags).toEqual([]);
    expect(normalize('A*01:01:38L').flags).toEqual([]);
  });

  it('unresolved rows are UNRESOLVABLE in all three columns; reported is verbatim', () => {
    const row = normalize('  nonsense ');
    expect(row).toEqual({
      reported: '  nonsense ',
      current_name: 'UNRESOLVABLE',
      allele_2field: 'UNRESOLVABLE',
      g_group: 'UNRESOLVABLE',
      flags: ['nonexistent_allele'],
    });
  });
});

describe('§6 allele lookup', () => {
  it('assigned facts', () => {
    const r = engine.lookup('A*01:01:01:01');
    expect(r).toMatchObject({
      found: true,
      facts: {
        release: '3.65.0',
        name: 'A*01:01:01:01',
        status: 'assigned',
        confirmed: true,
        g_group: 'A*01:01:01G',
        p_group: 'A*01:01P',
        first_release: null, // no history file in the mirror
        serology: { unambiguous: ['1'] },
        null_allele: false,
      },
    });
  });

  it('null allele marking and p_group null when none', () => {
    const r = engine.lookup('A*01:01:01:02N');
    expect(r).toMatchObject({ found: true, facts: { status: 'assigned', null_allele: true, p_group: null } });
  });

  it('valid prefix with the first 10 members', () => {
    const r = engine.lookup('A*01:01');
    if (!r.found || r.facts.status !== 'valid_prefix') throw new Error('expected a prefix');
    expect(r.facts.members_sample).toHaveLength(10);
    expect(r.facts.members_count).toBeGreaterThan(10);
  });

  it('group facts', () => {
    expect(engine.lookup('A*01:01:01G')).toMatchObject({ found: true, facts: { status: 'group', group_type: 'G' } });
    expect(engine.lookup('DPB1*04:01P')).toMatchObject({ found: true, facts: { status: 'group', group_type: 'P' } });
  });

  it('deleted facts with the reason', () => {
    expect(engine.lookup('A*11:53')).toMatchObject({
      found: true,
      facts: { status: 'deleted', successor: 'A*11:02:01:01', reason: expect.stringContaining('corrected sequence') },
    });
  });

  it('MAC codes answer 200 with status mac_code', () => {
    expect(engine.lookup('A*02:AB')).toMatchObject({ found: true, facts: { status: 'mac_code' } });
  });

  it('rewritten input carries resolves_to and flags', () => {
    expect(engine.lookup('Cw*07:02')).toMatchObject({
      found: true,
      facts: { status: 'valid_prefix', resolves_to: 'C*07:02', flags: ['deprecated_name'] },
    });
    expect(engine.lookup('A*02:XX')).toMatchObject({ found: true, facts: { resolves_to: 'A*02', flags: ['xx_code'] } });
  });

  it('404 details', () => {
    expect(engine.lookup('A*99:99')).toEqual({ found: false, detail: "'A*99:99' is not assigned in release 3.65.0" });
    expect(engine.lookup('A*99:XX')).toEqual({
      found: false,
      detail: "'A*99:XX' stands for 'A*99', which is not assigned in release 3.65.0",
    });
    const garbage = engine.lookup('hello');
    expect(garbage.found).toBe(false);
    expect(!garbage.found && garbage.detail).toMatch(/not an allele name/);
  });
});

describe('§7 antigens', () => {
  it.each([
    ['B*15:01', 'B', '62'],
    ['DRB1*15:01', 'DR', '15'],
    ['B*40:16', 'B', '60'],
    ['A*02:05', 'A', '2'],
  ])('%s → %s%s', (name, locus, antigen) => {
    expect(engine.antigen(name)).toEqual({ kind: 'antigen', locus, antigen });
  });

  it('UNCERTAIN when the code is unlisted or antigens are several', () => {
    expect(engine.antigen('B*07:13')).toEqual({ kind: 'uncertain' });
    expect(engine.antigen('B*35:XX')).toEqual({ kind: 'uncertain' });
  });

  it('a name ending in N is NULL; an unresolvable typing is unresolvable', () => {
    expect(engine.antigen('A*24:09N')).toEqual({ kind: 'null' });
    expect(engine.antigen('A*99:99')).toEqual({ kind: 'unresolvable' });
  });

  it('splits stay apart from their broad antigen', () => {
    expect(engine.antigen('A*23:01')).toEqual({ kind: 'antigen', locus: 'A', antigen: '23' });
    expect(engine.antigen('A*24:02')).toEqual({ kind: 'antigen', locus: 'A', antigen: '24' });
  });
});

describe('decisions where the rules were silent', () => {
  it('the 2009 table wins for the spellings it lists, even where a 4-digit field now exists', () => {
    // DPB1*1901 was the pre-2010 spelling of DPB1*19:01; DPB1*1901:01N is a different, newer allele.
    expect(normalize('DPB1*1901')).toMatchObject({ current_name: 'DPB1*19:01', flags: ['deprecated_name'] });
    expect(normalize('DPB1*1901:01N').current_name).toBe('DPB1*1901:01N');
  });

  it('an exact current name is never read as its own deletion record (E*01:130)', () => {
    expect(normalize('E*01:130')).toMatchObject({ current_name: 'E*01:130', flags: [] });
    expect(status('E*01:130')).toBe('valid');
  });

  it('a successor that names a prefix today is pinned to the record\'s own HLA ID', () => {
    // "Suffix added to allele becoming C*03:442Q", while 3.65.0 has C*03:442:01Q (same HLA ID).
    expect(normalize('C*03:442')).toMatchObject({ current_name: 'C*03:442:01Q', flags: ['deprecated_name'] });
  });
});

describe('antigens: a serology column that cannot tell', () => {
  it('a Q allele listed "0/2" is UNCERTAIN, not NULL (its first value)', () => {
    // rel_dna_ser: C*02:02:02:74Q has `0/2`, DRB1*15:13Q `0/15`: null or expressed, the release cannot tell.
    expect(engine.antigen('C*02:02:02:74Q')).toEqual({ kind: 'uncertain' });
    expect(engine.antigen('DRB1*15:13Q')).toEqual({ kind: 'uncertain' });
    // Their 2-field families, whose suffix-less members are all Cw2 / DR15, are certain.
    expect(engine.antigen('C*02:02')).toEqual({ kind: 'antigen', locus: 'Cw', antigen: '2' });
  });
});
