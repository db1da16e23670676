/** The diff's bookkeeping on hand-made releases: kinds, precedence, grouping, counts, order. */
import { describe, expect, it } from 'vitest';
import { diffToCsv, CSV_COLUMNS, listedChanges } from '../../src/release-diff/csv.ts';
import { diffReleases } from '../../src/release-diff/diff.ts';
import { locusOf } from '../../src/release-diff/locus.ts';
import { findLoaded, releaseTag } from '../../src/release-diff/release-tag.ts';
import { CHANGE_KINDS } from '../../src/release-diff/types.ts';
import { stubEngine } from './stub-engine.ts';

const older = stubEngine('1.0.0', {
  'A*01:01': { status: 'valid', current_name: 'A*01:01', g_group: 'A*01:01:01G' },
  'A*01:02': { status: 'valid', current_name: 'A*01:02', g_group: 'A*01:02:01G' },
  'B*07:02': { status: 'valid', current_name: 'B*07:02', g_group: 'B*07:02:01G' },
  'Cw*0702': { status: 'valid', current_name: 'C*07:02', flags: ['deprecated_name'] },
  'C*03:12': { status: 'deleted', successor: 'C*03:19', current_name: 'C*03:19', flags: ['deprecated_name'] },
});

const newer = stubEngine('2.0.0', {
  'A*01:01': { status: 'valid', current_name: 'A*01:01', g_group: 'AMBIGUOUS' },
  'A*01:02': {
    status: 'deleted',
    successor: 'A*01:02N',
    current_name: 'A*01:02N',
    allele_2field: 'A*01:02N',
    g_group: 'A*01:02:01G',
    flags: ['deprecated_name', 'null_allele'],
  },
  'A*01:02N': { status: 'valid', current_name: 'A*01:02N', g_group: 'A*01:02:01G', flags: ['null_allele'] },
  'B*07:02': { status: 'valid', current_name: 'B*07:02', g_group: 'B*07:02:01G' },
  'Cw*0702': { status: 'valid', current_name: 'C*07:02', flags: ['deprecated_name'] },
  'C*03:12': { status: 'deleted', successor: 'C*03:307', current_name: 'C*03:307', flags: ['deprecated_name'] },
});

describe('diffReleases (hand-made releases)', () => {
  const diff = diffReleases(older, newer);

  it('compares the union of the names both releases know', () => {
    expect(diff.summary.names_compared).toBe(6);
    expect(diff.scope).toBe('known_names');
    expect([diff.from, diff.to, diff.from_tag, diff.to_tag]).toEqual(['1.0.0', '2.0.0', 'v1.0.0-alpha', 'v2.0.0-alpha']);
  });

  it('lists a changed name once, under its most important kind, with every kind that changed', () => {
    const [deleted] = diff.changes.status.filter((change) => change.name === 'A*01:02');
    expect(deleted.kind).toBe('status');
    expect(deleted.kinds).toEqual(['status', 'current_name', 'successor', 'allele_2field', 'flags']);
    expect(deleted.from.status).toBe('valid');
    expect(deleted.to).toMatchObject({ status: 'deleted', successor: 'A*01:02N' });
    expect(diff.changes.g_group.map((change) => change.name)).toEqual(['A*01:01']);
    expect(diff.changes.current_name.map((change) => change.name)).toEqual(['C*03:12']);
    expect(diff.changes.current_name[0].kinds).toEqual(['current_name', 'successor', 'allele_2field']);
    const listed = listedChanges(diff).map((change) => change.name);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('reports a new name as hallucinated -> valid', () => {
    const added = diff.changes.status.find((change) => change.name === 'A*01:02N');
    expect(added?.from).toEqual({
      status: 'hallucinated',
      successor: null,
      current_name: 'UNRESOLVABLE',
      allele_2field: 'UNRESOLVABLE',
      g_group: 'UNRESOLVABLE',
      flags: ['nonexistent_allele'],
    });
    expect(added?.to.status).toBe('valid');
  });

  it('counts per kind, per field, per locus and per status move, and the counts add up', () => {
    const { summary } = diff;
    expect(summary.names_changed).toBe(4);
    expect(summary.by_kind).toEqual({ status: 2, current_name: 1, successor: 0, allele_2field: 0, g_group: 1, flags: 0 });
    expect(summary.fields_changed).toEqual({
      status: 2,
      current_name: 3,
      successor: 2,
      allele_2field: 3,
      g_group: 2,
      flags: 2,
    });
    expect(summary.status_transitions).toEqual({ 'hallucinated->valid': 1, 'valid->deleted': 1 });
    expect(Object.keys(summary.by_locus)).toEqual(['A', 'B', 'C']);
    expect(summary.by_locus.C).toEqual({
      names_compared: 2,
      names_changed: 1,
      by_kind: { status: 0, current_name: 1, successor: 0, allele_2field: 0, g_group: 0, flags: 0 },
    });
    expect(summary.by_locus.B.names_changed).toBe(0);
    for (const kind of CHANGE_KINDS) expect(summary.by_kind[kind]).toBe(diff.changes[kind].length);
  });

  it('is empty between a release and itself', () => {
    const same = diffReleases(newer, newer);
    expect(same.summary.names_changed).toBe(0);
    expect(listedChanges(same)).toEqual([]);
    expect(same.summary.names_compared).toBe(6);
  });

  it('restricts to the given names, trimmed, without blanks or repeats, unknown ones included', () => {
    const some = diffReleases(older, newer, { names: [' A*01:02 ', 'A*01:02', '', 'B*07:02', 'X*99:99'] });
    expect(some.scope).toBe('given_names');
    expect(some.summary.names_compared).toBe(3);
    expect(listedChanges(some).map((change) => change.name)).toEqual(['A*01:02']);
    expect(some.summary.by_locus.X).toMatchObject({ names_compared: 1, names_changed: 0 });
  });

  it('writes one CSV row per listed change, with the listed kind’s values in from/to', () => {
    const lines = diffToCsv(diff).trimEnd().split('\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(1 + diff.summary.names_changed);
    expect(lines).toContain(
      'A*01:02,A,status,valid,deleted,status current_name successor allele_2field flags,' +
        'valid,deleted,A*01:02,A*01:02N,,A*01:02N,A*01:02,A*01:02N,A*01:02:01G,A*01:02:01G,,deprecated_name null_allele',
    );
  });
});

describe('locusOf', () => {
  it('takes the locus before the star, counting Cw as C and dropping HLA-', () => {
    expect(locusOf('DRB1*15:13')).toBe('DRB1');
    expect(locusOf('Cw*0702')).toBe('C');
    expect(locusOf('HLA-A*02:01')).toBe('A');
    expect(locusOf('A2')).toBe('?');
  });
});

describe('release designations', () => {
  it('turns a version into its tag and finds loaded engines either way', () => {
    expect(releaseTag('3.58.0')).toBe('v3.58.0-alpha');
    expect(releaseTag('v3.58.0-alpha')).toBe('v3.58.0-alpha');
    const loaded = new Map([[older.tag, older]]);
    expect(findLoaded(loaded, '1.0.0')).toBe(older);
    expect(findLoaded(loaded, 'v1.0.0-alpha')).toBe(older);
    expect(findLoaded(loaded, '9.9.9')).toBeUndefined();
  });
});
