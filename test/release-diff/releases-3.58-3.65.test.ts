/**
 * The diff on the two genuine releases 3.58.0 → 3.65.0. Expected changes were read off the
 * release files themselves (Deleted_alleles.txt and Allelelist.txt of both releases).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { listedChanges } from '../../src/release-diff/csv.ts';
import { diffReleases } from '../../src/release-diff/diff.ts';
import { CHANGE_KINDS, type ReleaseDiff, type VerdictChange } from '../../src/release-diff/types.ts';
import { verdictOf } from '../../src/release-diff/verdict.ts';
import { loadTestEngine, loadTestTables } from '../support/engine.ts';

let older: Engine;
let newer: Engine;
let diff: ReleaseDiff;
let byName: Map<string, VerdictChange>;

beforeAll(async () => {
  [older, newer] = await Promise.all([loadTestEngine('3.58.0'), loadTestEngine('3.65.0')]);
  diff = diffReleases(older, newer);
  byName = new Map(listedChanges(diff).map((change) => [change.name, change]));
});

function changeOf(name: string): VerdictChange {
  const change = byName.get(name);
  if (change === undefined) throw new Error(`${name} is not listed as changed`);
  return change;
}

describe('3.58.0 → 3.65.0', () => {
  it('names both releases and compares every name either knows', () => {
    expect([diff.from, diff.to, diff.from_tag, diff.to_tag, diff.scope]).toEqual([
      '3.58.0',
      '3.65.0',
      'v3.58.0-alpha',
      'v3.65.0-alpha',
      'known_names',
    ]);
    const union = new Set([...older.knownNames(), ...newer.knownNames()]);
    expect(diff.summary.names_compared).toBe(union.size);
    for (const change of listedChanges(diff)) expect(union.has(change.name)).toBe(true);
  });

  it.each([
    // name, successor in 3.65.0, deletion record of 3.65.0
    ['C*15:05:02:02', 'C*15:05:02:01'], // "shown to be in error and renamed C*15:05:02:01 (July 2025)"
    ['B*35:32:03', 'B*35:654'], // "… and renamed to B*35:654 as a new protein (August 2025)"
    ['DRB1*15:13', 'DRB1*15:13Q'], // "Suffix added to allele becoming DRB1*15:13Q (December 2024)"
    ['C*04:09N', 'C*04:09L'], // "Suffix changed becoming C*04:09L (December 2024)"
    ['H*02:01:01:02', 'H*02:01:01:01'], // "… identical to H*02:01:01:01 (February 2026)"
    ['MICA*036', 'MICA*002:01:08'], // "… identical to MICA*002:01:08 (October 2024)"
  ])('lists %s, current in 3.58.0 and deleted since, as valid → deleted with successor %s', (name, successor) => {
    const change = changeOf(name);
    expect(change.kind).toBe('status');
    expect(change.from).toMatchObject({ status: 'valid', successor: null, current_name: name });
    expect(change.to).toMatchObject({ status: 'deleted', successor, current_name: successor });
    expect(change.to.flags).toContain('deprecated_name');
    expect(change.kinds).toEqual(expect.arrayContaining(['status', 'current_name', 'successor', 'flags']));
  });

  it('lists the legacy spelling of a deleted name with it (DRB1*1513 → DRB1*15:13Q)', () => {
    expect(changeOf('DRB1*1513').to).toMatchObject({ status: 'deleted', successor: 'DRB1*15:13Q' });
    expect(changeOf('DRB1*1513').locus).toBe('DRB1');
  });

  it('lists B*15:732, assigned and deleted between the two releases, as hallucinated → deleted', () => {
    // 3.65.0: "Sequence named in error and renamed B*35:651 (June 2025)"; absent from 3.58.0.
    const change = changeOf('B*15:732');
    expect(change.from.status).toBe('hallucinated');
    expect(change.to).toMatchObject({ status: 'deleted', successor: 'B*35:651', current_name: 'B*35:651' });
  });

  it('lists names new in 3.65.0 as hallucinated → valid', () => {
    for (const name of ['B*35:651', 'B*35:654', 'DRB1*15:13Q', 'C*04:09L']) {
      const change = changeOf(name);
      expect(change.kind).toBe('status');
      expect(change.from).toMatchObject({ status: 'hallucinated', current_name: 'UNRESOLVABLE' });
      expect(change.to).toMatchObject({ status: 'valid', current_name: name });
    }
  });

  it('lists every allele of 3.65.0 Allelelist.txt that 3.58.0 did not have as hallucinated → valid', async () => {
    const [oldTables, newTables] = await Promise.all([loadTestTables('3.58.0'), loadTestTables('3.65.0')]);
    const before = new Set(oldTables.alleles.map((row) => row.name));
    const added = newTables.alleles.map((row) => row.name).filter((name) => !before.has(name));
    expect(added.length).toBeGreaterThan(5_000);
    for (const name of added) {
      const change = byName.get(name);
      expect(change?.from.status, name).toBe('hallucinated');
      expect(change?.to.status, name).toBe('valid');
    }
  });

  it('lists a deleted name whose successor moved under current_name (DRB5*0201)', () => {
    // 3.58.0: "… identical to DRB5*02:02:01"; 3.65.0: "… identical to DRB5*02:02:01:01".
    const change = changeOf('DRB5*0201');
    expect(change.kind).toBe('current_name');
    expect(change.kinds).toEqual(['current_name', 'successor']);
    expect([change.from.status, change.to.status]).toEqual(['deleted', 'deleted']);
    expect([change.from.current_name, change.to.current_name]).toEqual(['DRB5*02:02:01', 'DRB5*02:02:01:01']);
  });

  it('lists a prefix whose G group widened under g_group (A*02:614)', () => {
    const change = changeOf('A*02:614');
    expect(change.kind).toBe('g_group');
    expect([change.from.g_group, change.to.g_group]).toEqual(['A*02:01:01G', 'AMBIGUOUS']);
  });

  it('leaves unchanged names out', () => {
    for (const name of ['A*01:01:01:01', 'A*02:01', 'B*07:02:01:01', 'Cw*0702', 'C*03:12']) {
      expect(byName.has(name), name).toBe(false);
      expect(verdictOf(older, name)).toEqual(verdictOf(newer, name));
    }
  });

  it('records both sides as the engines answer them', () => {
    for (const change of listedChanges(diff).filter((_, k) => k % 97 === 0)) {
      expect(change.from).toEqual(verdictOf(older, change.name));
      expect(change.to).toEqual(verdictOf(newer, change.name));
    }
  });

  it('gives a deleted name its successor as current name on both sides (one resolver)', () => {
    for (const change of listedChanges(diff)) {
      for (const side of [change.from, change.to]) {
        if (side.status === 'deleted' && side.successor !== null) expect(side.current_name, change.name).toBe(side.successor);
      }
    }
  });
});

describe('counts', () => {
  it('add up: per kind, per locus and per field', () => {
    const { summary } = diff;
    const listed = listedChanges(diff);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(listed).toHaveLength(summary.names_changed);
    expect(sum(CHANGE_KINDS.map((kind) => summary.by_kind[kind]))).toBe(summary.names_changed);
    for (const kind of CHANGE_KINDS) {
      expect(diff.changes[kind]).toHaveLength(summary.by_kind[kind]);
      expect(summary.fields_changed[kind]).toBe(listed.filter((change) => change.kinds.includes(kind)).length);
      expect(sum(Object.values(summary.by_locus).map((locus) => locus.by_kind[kind]))).toBe(summary.by_kind[kind]);
    }
    const loci = Object.values(summary.by_locus);
    expect(sum(loci.map((locus) => locus.names_changed))).toBe(summary.names_changed);
    expect(sum(loci.map((locus) => locus.names_compared))).toBe(summary.names_compared);
    for (const [locus, counts] of Object.entries(summary.by_locus)) {
      expect(sum(CHANGE_KINDS.map((kind) => counts.by_kind[kind]))).toBe(counts.names_changed);
      expect(listed.filter((change) => change.locus === locus)).toHaveLength(counts.names_changed);
    }
    expect(sum(Object.values(summary.status_transitions))).toBe(summary.fields_changed.status);
    expect(summary.fields_changed.status).toBe(summary.by_kind.status);
  });

  it('are the figures of this release pair', () => {
    const { summary } = diff;
    expect(summary.names_changed).toBeGreaterThan(6_000);
    expect(summary.status_transitions['valid->deleted']).toBeGreaterThanOrEqual(20);
    expect(summary.status_transitions['hallucinated->valid']).toBeGreaterThan(5_000);
    expect(Object.keys(summary.by_locus)).toEqual(expect.arrayContaining(['A', 'B', 'C', 'DRB1', 'DQB1', 'DPB1']));
  });
});

describe('output order', () => {
  it('lists each name once, under its most important kind, groups sorted by name', () => {
    const seen = new Set<string>();
    for (const kind of CHANGE_KINDS) {
      const names = diff.changes[kind].map((change) => change.name);
      expect(names).toEqual([...names].sort());
      for (const change of diff.changes[kind]) {
        expect(change.kind).toBe(kind);
        expect(change.kinds[0]).toBe(kind);
        expect(change.kinds).toEqual(CHANGE_KINDS.filter((k) => change.kinds.includes(k)));
        expect(seen.has(change.name)).toBe(false);
        seen.add(change.name);
      }
    }
    const loci = Object.keys(diff.summary.by_locus);
    expect(loci).toEqual([...loci].sort());
    const transitions = Object.keys(diff.summary.status_transitions);
    expect(transitions).toEqual([...transitions].sort());
  });

  it('is the same JSON every time', () => {
    expect(JSON.stringify(diffReleases(older, newer))).toBe(JSON.stringify(diff));
  });
});

describe('a release against itself', () => {
  it.each(['3.58.0', '3.65.0'] as const)('%s → %s is empty', async (version) => {
    const engine = await loadTestEngine(version);
    const same = diffReleases(engine, engine);
    expect(same.summary.names_changed).toBe(0);
    expect(listedChanges(same)).toEqual([]);
    expect(same.summary.names_compared).toBe(new Set(engine.knownNames()).size);
    expect(Object.values(same.summary.status_transitions)).toEqual([]);
  });
});

describe('restricted to given names', () => {
  it('equals the full diff filtered to those names', () => {
    const union = [...new Set([...older.knownNames(), ...newer.knownNames()])];
    const sample = union.filter((_, k) => k % 41 === 0);
    const examples = ['C*15:05:02:02', 'B*15:732', 'DRB5*0201', 'A*02:614', 'A*01:01:01:01', 'DRB1*1513'];
    const names = [...sample, ...examples];
    const wanted = new Set(names);
    const some = diffReleases(older, newer, { names });
    expect(some.scope).toBe('given_names');
    expect(some.summary.names_compared).toBe(wanted.size);
    for (const kind of CHANGE_KINDS) {
      expect(some.changes[kind]).toEqual(diff.changes[kind].filter((change) => wanted.has(change.name)));
    }
    for (const [locus, counts] of Object.entries(some.summary.by_locus)) {
      expect(counts.names_changed).toBe(listedChanges(some).filter((change) => change.locus === locus).length);
    }
  });

  it('compares names neither release knows, in any spelling', () => {
    const some = diffReleases(older, newer, { names: ['HLA-C*15:05:02:02', '  B*35:32:03 ', 'A*99:99', 'A*02:XX'] });
    expect(some.summary.names_compared).toBe(4);
    expect(listedChanges(some).map((change) => change.name)).toEqual(['B*35:32:03', 'HLA-C*15:05:02:02']);
    expect(changeOf('C*15:05:02:02').to).toEqual(some.changes.status[1].to);
    expect(some.summary.by_locus.C.names_changed).toBe(1);
  });
});
