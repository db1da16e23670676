/**
 * Match rules R1–R6 (DOMAIN_RULES §8) on the real 3.65.0 release: every worked case of §8 and §7,
 * and the edge cases decided in docs/matching.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { match } from '../../src/matching/match.ts';
import type { Framework, MatchResponse, Typing } from '../../src/matching/types.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { loadTestEngine } from '../support/engine.ts';
import { BASE, typing } from './typings.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
});

function run(framework: Framework | undefined, recipient: Typing, donor: Typing): MatchResponse {
  return match(engine, framework === undefined ? { recipient, donor } : { framework, recipient, donor });
}

/** The scoring part of a response, for compact expectations. */
function score(response: MatchResponse) {
  const { count, verdicts, hvg_mismatches, gvh_mismatches, flags } = response;
  return { count, verdicts, hvg: hvg_mismatches, gvh: gvh_mismatches, flags };
}

const ALL_MATCH_8 = { A: 'match', B: 'match', C: 'match', DRB1: 'match' };

describe('response', () => {
  it('carries release, framework and attribution from the engine', () => {
    const response = run('8/8', typing(), typing());
    expect(response).toEqual({
      release: '3.65.0',
      framework: '8/8',
      count: '8/8',
      verdicts: ALL_MATCH_8,
      hvg_mismatches: 0,
      gvh_mismatches: 0,
      flags: [],
      attribution: engine.attribution,
    });
    expect(response.release).toBe(engine.release);
  });

  it('defaults to 8/8', () => {
    expect(run(undefined, typing(), typing()).framework).toBe('8/8');
  });

  it.each([
    ['6/6', ['A', 'B', 'DRB1'], '6/6'],
    ['8/8', ['A', 'B', 'C', 'DRB1'], '8/8'],
    ['10/10', ['A', 'B', 'C', 'DRB1', 'DQB1'], '10/10'],
    ['12/12', ['A', 'B', 'C', 'DRB1', 'DQB1', 'DPB1'], '12/12'],
    ['antigen', ['A', 'B', 'C', 'DRB1', 'DQB1'], '10/10'],
  ] as const)('R5: %s scores %j in that order', (framework, loci, count) => {
    const response = run(framework, typing(), typing());
    expect(Object.keys(response.verdicts)).toEqual(loci);
    expect(response.count).toBe(count);
    expect(response.flags).toEqual([]);
  });
});

describe('R1: every typing is normalized first', () => {
  it('a null allele never equals the expressed alleles of its 2-field family (A*01:01:01:02N vs A*01:01:01:01)', () => {
    // §5 reduces A*01:01:01:02N to A*01:01 for normalize; a match on that token would pair a
    // non-expressed allele with an expressed one.
    const response = run('8/8', typing({ A: ['A*01:01:01:02N', 'A*02:01'] }), typing({ A: ['A*01:01:01:01', 'A*02:01'] }));
    expect(score(response)).toMatchObject({ count: '7/8', verdicts: { A: 'mismatch' }, hvg: 1, gvh: 1 });
    expect(response.flags).toContain('null_allele');
    const same = run('8/8', typing({ A: ['A*01:01:01:02N', 'A*02:01'] }), typing({ A: ['A*01:01:01:02N', 'A*02:01'] }));
    expect(score(same)).toMatchObject({ count: '8/8', verdicts: { A: 'match' } });
  });

  it('A*24:09N never equals A*24:02 at allele level', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*24:09N'] }), typing({ A: ['A*01:01', 'A*24:02'] }));
    expect(score(response)).toEqual({
      count: '7/8',
      verdicts: { ...ALL_MATCH_8, A: 'mismatch' },
      hvg: 1,
      gvh: 1,
      flags: ['null_allele'],
    });
  });

  it.each([
    ['G group', 'A*02:01:01G'],
    ['lg name', 'A*02:01g'],
    ['3-field name', 'A*02:01:01'],
    ['4-field name', 'A*02:01:01:01'],
    ['HLA- prefix', 'HLA-A*02:01'],
    ['legacy colon-less name', 'A*0201'],
    ['surrounding spaces', ' A*02:01 '],
  ])('a %s equals its 2-field name (%s ≡ A*02:01)', (_label, name) => {
    const response = run('8/8', typing({ A: ['A*01:01', name] }), typing());
    expect(score(response)).toEqual({ count: '8/8', verdicts: ALL_MATCH_8, hvg: 0, gvh: 0, flags: [] });
  });

  it('legacy names on one side only (A*0101, Cw*0702, colon-style Cw*07:01)', () => {
    const recipient = typing({ A: ['A*0101', 'A*0201'], C: ['Cw*07:01', 'Cw*0702'] });
    expect(score(run('8/8', recipient, typing())).count).toBe('8/8');
    expect(score(run('8/8', typing(), recipient)).count).toBe('8/8');
  });

  it('deleted names on one side only compare through their successors', () => {
    // A*23:69 → A*23:01:01:01; A*11:53 → A*11:02:01:01; A*2412 → A*24:08 (Deleted_alleles.txt)
    const recipient = typing({ A: ['A*23:69', 'A*11:53'], B: ['B*07:02', 'B*08:01'] });
    const donor = typing({ A: ['A*23:01', 'A*11:02'] });
    expect(score(run('8/8', recipient, donor))).toEqual({
      count: '8/8',
      verdicts: ALL_MATCH_8,
      hvg: 0,
      gvh: 0,
      flags: [],
    });
    const legacyDeleted = run('8/8', typing({ A: ['A*2412', 'A*01:01'] }), typing({ A: ['A*24:08', 'A*01:01'] }));
    expect(legacyDeleted.verdicts.A).toBe('match');
  });

  it('a deleted name with no successor cannot be called (A*02:100 "Name never assigned")', () => {
    const response = run('8/8', typing({ A: ['A*02:100', 'A*01:01'] }), typing());
    expect(score(response)).toEqual({
      count: '6/6',
      verdicts: { ...ALL_MATCH_8, A: 'potential' },
      hvg: 0,
      gvh: 0,
      flags: ['resolution_insufficient'],
    });
  });

  it('a prefix whose every member is null raises null_allele (C*03:755 → C*03:755N)', () => {
    const response = run('8/8', typing({ C: ['C*03:755', 'C*07:02'] }), typing({ C: ['C*03:755N', 'C*07:02'] }));
    expect(score(response)).toEqual({ count: '8/8', verdicts: ALL_MATCH_8, hvg: 0, gvh: 0, flags: ['null_allele'] });
  });
});

describe('R2: mismatches are counted per chromosome', () => {
  it('two mismatches at one locus', () => {
    const response = run('8/8', typing({ A: ['A*03:01', 'A*11:01'] }), typing());
    expect(score(response)).toMatchObject({ count: '6/8', hvg: 2, gvh: 2 });
  });

  it('mismatches over several loci add up', () => {
    const recipient = typing({ A: ['A*01:01', 'A*03:01'], B: ['B*07:02', 'B*44:02'], DRB1: ['DRB1*04:01', 'DRB1*07:01'] });
    const response = run('8/8', recipient, typing());
    expect(score(response)).toEqual({
      count: '4/8',
      verdicts: { A: 'mismatch', B: 'mismatch', C: 'match', DRB1: 'mismatch' },
      hvg: 4,
      gvh: 4,
      flags: [],
    });
  });

  it('one name against one name', () => {
    expect(score(run('8/8', typing({ A: ['A*01:01'] }), typing({ A: ['A*01:01'] }))).count).toBe('8/8');
    expect(score(run('8/8', typing({ A: ['A*01:01'] }), typing({ A: ['A*02:01'] })))).toMatchObject({
      count: '7/8',
      hvg: 1,
      gvh: 1,
    });
  });

  it('one name against two: the missing slot is a mismatch', () => {
    const response = run('8/8', typing({ A: ['A*01:01'] }), typing());
    expect(score(response)).toMatchObject({ count: '7/8', hvg: 1, gvh: 0 });
  });

  it('duplicates count as a multiset: [x, x] against [x] is one mismatch but no directional one', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*01:01'] }), typing({ A: ['A*01:01'] }));
    expect(score(response)).toMatchObject({ count: '7/8', verdicts: { A: 'mismatch' }, hvg: 0, gvh: 0 });
  });

  it('the same allele under two spellings is a duplicate', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*0101'] }), typing({ A: ['A*01:01:01:01', 'A*01:01:01'] }));
    expect(score(response).count).toBe('8/8');
  });

  it('three names at a locus: slots are the longer list', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*02:01', 'A*03:01'] }), typing());
    expect(score(response)).toMatchObject({ count: '7/8', verdicts: { A: 'mismatch' }, hvg: 0, gvh: 1 });
  });

  it('four names at a locus match the same four names', () => {
    const four = ['A*01:01', 'A*02:01', 'A*03:01', 'A*11:01'];
    expect(score(run('8/8', typing({ A: four }), typing({ A: [...four].reverse() }))).count).toBe('8/8');
  });

  it('a locus never loses more than its two chromosomes', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*02:01', 'A*03:01', 'A*11:01'] }), typing({ A: ['A*24:02', 'A*26:01'] }));
    expect(score(response)).toMatchObject({ count: '6/8', verdicts: { A: 'mismatch' }, hvg: 2, gvh: 2 });
  });

  it('an empty list on one side is a typing with nothing in it: every name of the other side mismatches', () => {
    const response = run('8/8', typing({ A: [] }), typing());
    expect(score(response)).toEqual({
      count: '6/8',
      verdicts: { ...ALL_MATCH_8, A: 'mismatch' },
      hvg: 2,
      gvh: 0,
      flags: [],
    });
    expect(score(run('8/8', typing(), typing({ A: [] })))).toMatchObject({ count: '6/8', hvg: 0, gvh: 2 });
  });

  it('empty lists on both sides leave nothing to call: potential', () => {
    const response = run('8/8', typing({ A: [] }), typing({ A: [] }));
    expect(score(response)).toEqual({
      count: '6/6',
      verdicts: { ...ALL_MATCH_8, A: 'potential' },
      hvg: 0,
      gvh: 0,
      flags: ['resolution_insufficient'],
    });
  });
});

describe('R3: antigen level', () => {
  it('a null allele hiding inside a serologic match raises null_allele_mismatch', () => {
    const recipient = typing({ A: ['A*02:01', 'A*24:09N'] });
    const donor = typing({ A: ['A*02:01'] });
    for (const framework of ['antigen', '6/6'] as const) {
      const response = run(framework, recipient, donor);
      expect(response.verdicts.A).toBe('match');
      expect(response.flags).toEqual(['null_allele', 'null_allele_mismatch']);
      expect(response.count).toBe(framework === 'antigen' ? '10/10' : '6/6');
    }
  });

  it('a null allele beside a visible antigen mismatch is only null_allele', () => {
    const response = run('antigen', typing({ A: ['A*02:01', 'A*24:09N'] }), typing({ A: ['A*02:01', 'A*24:02'] }));
    expect(score(response)).toMatchObject({ count: '9/10', verdicts: { A: 'mismatch' }, hvg: 1, gvh: 0, flags: ['null_allele'] });
  });

  it('at allele level the null is a token: no null_allele_mismatch', () => {
    const response = run('8/8', typing({ A: ['A*02:01', 'A*24:09N'] }), typing({ A: ['A*02:01'] }));
    expect(score(response)).toMatchObject({ count: '7/8', verdicts: { A: 'mismatch' }, hvg: 0, gvh: 1, flags: ['null_allele'] });
  });

  it('nulls only on both sides leave nothing to call', () => {
    const response = run('antigen', typing({ A: ['A*24:09N'] }), typing({ A: ['A*24:09N'] }));
    expect(score(response)).toMatchObject({
      count: '8/8',
      verdicts: { A: 'potential' },
      flags: ['null_allele', 'resolution_insufficient'],
    });
  });

  it('split against split of the same broad is a mismatch (A23 vs A24)', () => {
    const response = run('antigen', typing({ A: ['A*01:01', 'A*23:01'] }), typing({ A: ['A*01:01', 'A*24:02'] }));
    expect(score(response)).toMatchObject({ count: '9/10', verdicts: { A: 'mismatch' }, hvg: 1, gvh: 1 });
  });

  it('associated antigens collapse to their antigen (A*02:05 ≡ A2, B*40:16 ≡ B60)', () => {
    const recipient = typing({ A: ['A*01:01', 'A*02:05'], B: ['B*40:16', 'B*08:01'] });
    const donor = typing({ A: ['A*01:01', 'A*02:01'], B: ['B*40:01', 'B*08:01'] });
    expect(score(run('antigen', recipient, donor))).toMatchObject({ count: '10/10', hvg: 0, gvh: 0 });
    expect(score(run('8/8', recipient, donor))).toMatchObject({ count: '6/8', hvg: 2, gvh: 2 });
  });

  it('serology is per locus: code 1501 is B62 at B but DR15 at DRB1', () => {
    // B*15:01 (1501) → B62 = B*15:04:01:01 (62); B*15:02 (1502) → B75.
    expect(run('antigen', typing({ B: ['B*15:01', 'B*08:01'] }), typing({ B: ['B*15:04:01:01', 'B*08:01'] })).verdicts.B).toBe('match');
    expect(run('antigen', typing({ B: ['B*15:01', 'B*08:01'] }), typing({ B: ['B*15:02', 'B*08:01'] })).verdicts.B).toBe('mismatch');
    // DRB1*15:01 (1501) → DR15 = DRB1*15:03 (15); DRB1*16:01 → DR16.
    expect(run('antigen', typing({ DRB1: ['DRB1*15:01', 'DRB1*03:01'] }), typing({ DRB1: ['DRB1*15:03', 'DRB1*03:01'] })).verdicts.DRB1).toBe('match');
    expect(run('antigen', typing({ DRB1: ['DRB1*15:01', 'DRB1*03:01'] }), typing({ DRB1: ['DRB1*16:01', 'DRB1*03:01'] })).verdicts.DRB1).toBe('mismatch');
  });

  it('6/6 takes A and B at antigen level but DRB1 at allele level', () => {
    const recipient = typing({ A: ['A*01:01', 'A*02:05'], DRB1: ['DRB1*03:01', 'DRB1*15:03'] });
    const response = run('6/6', recipient, typing());
    expect(score(response)).toEqual({
      count: '5/6',
      verdicts: { A: 'match', B: 'match', DRB1: 'mismatch' },
      hvg: 1,
      gvh: 1,
      flags: [],
    });
  });

  it('XX and first-field typings are scored at antigen level when their antigen is certain', () => {
    // A*02:XX and A*02 → A2; A*23:XX → A23 (every A*02 / A*23 allele is A2 / A23 in rel_dna_ser).
    const recipient = typing({ A: ['A*02:XX', 'A*23:XX'], B: ['B*07:02', 'B*08'] });
    const donor = typing({ A: ['A*02', 'A*24:02'] });
    expect(score(run('antigen', recipient, donor))).toEqual({
      count: '9/10',
      verdicts: { A: 'mismatch', B: 'match', C: 'match', DRB1: 'match', DQB1: 'match' },
      hvg: 1,
      gvh: 1,
      flags: [],
    });
    expect(score(run('antigen', typing({ A: ['A*02:XX', 'A*01:XX'] }), typing())).count).toBe('10/10');
    // The same typings cannot be called at allele level.
    expect(score(run('8/8', recipient, donor))).toMatchObject({
      count: '4/4',
      verdicts: { A: 'potential', B: 'potential' },
      flags: ['resolution_insufficient'],
    });
  });

  it('an UNCERTAIN antigen is potential (B*07:13: code 0713 is not listed; B*35:XX: many antigens)', () => {
    for (const name of ['B*07:13', 'B*35:XX']) {
      const response = run('antigen', typing({ B: [name, 'B*08:01'] }), typing());
      expect(score(response)).toMatchObject({ count: '8/8', verdicts: { B: 'potential' }, flags: ['resolution_insufficient'] });
    }
  });
});

describe('R4: direction', () => {
  it('homozygous recipient: 7/8, HvG 1, GvH 0', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*01:01'] }), typing({ A: ['A*01:01', 'A*02:01'] }));
    expect(score(response)).toEqual({
      count: '7/8',
      verdicts: { ...ALL_MATCH_8, A: 'mismatch' },
      hvg: 1,
      gvh: 0,
      flags: [],
    });
  });

  it('homozygous donor: 7/8, HvG 0, GvH 1', () => {
    const response = run('8/8', typing({ A: ['A*01:01', 'A*02:01'] }), typing({ A: ['A*01:01', 'A*01:01'] }));
    expect(score(response)).toMatchObject({ count: '7/8', hvg: 0, gvh: 1 });
  });

  it('directions add up over loci independently', () => {
    const recipient = typing({ A: ['A*01:01', 'A*01:01'], B: ['B*07:02', 'B*08:01'] });
    const donor = typing({ A: ['A*01:01', 'A*02:01'], B: ['B*07:02', 'B*07:02'] });
    expect(score(run('8/8', recipient, donor))).toMatchObject({ count: '6/8', hvg: 1, gvh: 1 });
  });
});

describe('R6: insufficient resolution', () => {
  it('A*02 against A*02:01 at 8/8: A is potential and the count is 6/6', () => {
    const response = run('8/8', typing({ A: ['A*02'] }), typing({ A: ['A*02:01'] }));
    expect(score(response)).toEqual({
      count: '6/6',
      verdicts: { ...ALL_MATCH_8, A: 'potential' },
      hvg: 0,
      gvh: 0,
      flags: ['resolution_insufficient'],
    });
  });

  it.each(['A*02:XX', 'A*02', 'HLA-A*02:XX'])('first-field typing %s is potential at allele level', (name) => {
    const response = run('8/8', typing({ A: ['A*01:01', name] }), typing());
    expect(response.verdicts.A).toBe('potential');
    expect(response.flags).toEqual(['resolution_insufficient']);
  });

  it('first-field DRB1*15 is potential under 6/6 (DRB1 at allele level)', () => {
    const response = run('6/6', typing({ DRB1: ['DRB1*03:01', 'DRB1*15'] }), typing());
    expect(score(response)).toMatchObject({ count: '4/4', verdicts: { DRB1: 'potential' } });
  });

  it('a potential locus is out of the HvG/GvH sums even when nothing would match', () => {
    const response = run('8/8', typing({ A: ['A*02', 'A*03:01'] }), typing({ A: ['A*11:01', 'A*24:02'] }));
    expect(score(response)).toMatchObject({ count: '6/6', verdicts: { A: 'potential' }, hvg: 0, gvh: 0 });
  });

  it.each([
    ['a nonexistent name', 'A*99:99'],
    ['a MAC code', 'A*02:AB'],
    ['serology', 'A2'],
    ['an empty string', ''],
    ['free text', 'not a name'],
  ])('any unresolvable typing at the locus makes it potential: %s', (_label, name) => {
    for (const framework of ['8/8', 'antigen'] as const) {
      const response = run(framework, typing(), typing({ A: ['A*01:01', name] }));
      expect(response.verdicts.A).toBe('potential');
      expect(response.flags).toEqual(['resolution_insufficient']);
    }
  });

  it('a locus missing from either side is potential', () => {
    expect(score(run('8/8', typing({ C: undefined }), typing()))).toMatchObject({ count: '6/6', verdicts: { C: 'potential' } });
    expect(score(run('8/8', typing(), typing({ C: undefined })))).toMatchObject({ count: '6/6', verdicts: { C: 'potential' } });
    expect(score(run('12/12', typing({ DPB1: undefined }), typing({ DPB1: undefined })))).toMatchObject({
      count: '10/10',
      verdicts: { DPB1: 'potential' },
      flags: ['resolution_insufficient'],
    });
  });

  it('nothing scorable: count UNRESOLVABLE', () => {
    const response = run('8/8', {}, typing());
    expect(score(response)).toEqual({
      count: 'UNRESOLVABLE',
      verdicts: { A: 'potential', B: 'potential', C: 'potential', DRB1: 'potential' },
      hvg: 0,
      gvh: 0,
      flags: ['resolution_insufficient'],
    });
    const coarse = { A: ['A*01', 'A*02'], B: ['B*07:XX'], C: ['C*07'], DRB1: ['DRB1*15:XX', 'DRB1*03:01'] };
    expect(run('8/8', coarse, coarse).count).toBe('UNRESOLVABLE');
  });

  it('a null allele is reported even at a potential locus', () => {
    const response = run('8/8', typing({ A: ['A*24:09N', 'A*02'] }), typing());
    expect(score(response)).toMatchObject({
      count: '6/6',
      verdicts: { A: 'potential' },
      flags: ['null_allele', 'resolution_insufficient'],
    });
    expect(run('8/8', typing({ A: ['A*24:09N'] }), typing({ A: undefined })).flags).toEqual([
      'null_allele',
      'resolution_insufficient',
    ]);
  });
});

describe('loci outside the framework', () => {
  it('are ignored, whatever they hold', () => {
    const recipient = { ...typing({ DQB1: ['nonsense'], DPB1: ['A*01:01'] }), DRB3: ['DRB3*01:01'], KIR2DL1: ['KIR2DL1*001'], MICA: [] };
    const donor = typing({ DQB1: undefined, DPB1: ['DPB1*999:99N'] });
    expect(score(run('8/8', recipient, donor))).toEqual({ count: '8/8', verdicts: ALL_MATCH_8, hvg: 0, gvh: 0, flags: [] });
  });

  it('a null allele at an ignored locus raises no flag', () => {
    const response = run('8/8', typing({ DQB1: ['DQB1*02:01', 'DQB1*02:225Q'], DPB1: ['DPB1*04:01', 'A*24:09N'] }), typing());
    expect(response.flags).toEqual([]);
  });
});

describe('locus keys', () => {
  it('accept HLA-A, A*, HLA-A* and Cw for C', () => {
    const recipient = {
      'HLA-A': BASE.A,
      'B*': BASE.B,
      Cw: BASE.C,
      'HLA-DRB1*': BASE.DRB1,
    };
    expect(score(run('8/8', recipient, typing()))).toEqual({ count: '8/8', verdicts: ALL_MATCH_8, hvg: 0, gvh: 0, flags: [] });
  });
});

describe('several releases in one process', () => {
  it('each engine answers from its own release, calls interleaved', async () => {
    const older = await loadTestEngine('3.58.0');
    // A*01:471 was assigned after 3.58.0.
    const request = { recipient: typing({ A: ['A*01:471', 'A*02:01'] }), donor: typing() };
    for (let round = 0; round < 2; round++) {
      const now = match(engine, request);
      const then = match(older, request);
      expect([now.release, now.verdicts.A, now.count]).toEqual(['3.65.0', 'mismatch', '7/8']);
      expect([then.release, then.verdicts.A, then.count]).toEqual(['3.58.0', 'potential', '6/6']);
      expect(then.attribution).toBe(older.attribution);
    }
  });
});
