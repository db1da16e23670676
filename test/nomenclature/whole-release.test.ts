/**
 * Whole-release invariants on the genuine 3.65.0 files: every current name, every deletion record,
 * every G group, and one meaning per name across verify, normalize and lookup.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine } from '../../src/nomenclature/engine.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { parseHistory } from '../../src/reference/history.ts';
import type { ReleaseTables } from '../../src/reference/tables.ts';
import { HISTORY_3180, loadTestEngine, loadTestTables } from '../support/engine.ts';

let engine: Engine;
let tables: ReleaseTables;
beforeAll(async () => {
  tables = await loadTestTables('3.65.0');
  engine = await loadTestEngine('3.65.0');
});

describe('current names', () => {
  it('the release names 46,652 alleles', () => {
    expect(tables.alleles).toHaveLength(46_652);
    expect(engine.alleleCount).toBe(46_652);
    expect(new Set(tables.alleles.map((a) => a.name)).size).toBe(46_652);
  });

  it('every current name is valid, resolves to itself and is assigned in lookup', () => {
    const wrong: string[] = [];
    for (const { name } of tables.alleles) {
      const verdict = engine.classify(name);
      const row = engine.normalizeOne(name);
      const lookup = engine.lookup(name);
      const ok =
        verdict.status === 'valid' &&
        !verdict.flags?.includes('deprecated_name') &&
        row.current_name === name &&
        lookup.found &&
        lookup.facts.status === 'assigned' &&
        lookup.facts.resolves_to === undefined;
      if (!ok) wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });

  it('every current name found in a text of all of them is valid', () => {
    const text = tables.alleles.map((a) => a.name).join(', ');
    const r = engine.verify(text);
    expect(r.tokens).toHaveLength(46_652);
    expect(r.counts.valid).toBe(46_652);
    expect(r.clean).toBe(true);
  });
});

describe('deletion records', () => {
  it('every Deleted_alleles.txt entry has one meaning in verify, normalize and lookup', () => {
    const disagreements: string[] = [];
    for (const row of tables.deleted) {
      const name = row.name;
      const resolution = engine.resolve(name);
      const verdict = engine.classify(name);
      const normalized = engine.normalizeOne(name);
      const lookup = engine.lookup(name);
      const current = resolution.name;
      const isCurrentToo = tables.alleles.some((a) => a.name === name);
      if (isCurrentToo) {
        // E*01:130: the release lists it as current and as "suffix added … becoming E*01:130".
        if (verdict.status !== 'valid' || normalized.current_name !== name) disagreements.push(name);
        continue;
      }
      const sameSuccessor =
        verdict.status === 'deleted' &&
        (verdict.successor ?? null) === current &&
        normalized.current_name === (current ?? 'UNRESOLVABLE') &&
        normalized.flags.includes('deprecated_name') &&
        lookup.found &&
        lookup.facts.status === 'deleted' &&
        lookup.facts.successor === current &&
        lookup.facts.reason === row.description;
      if (!sameSuccessor) disagreements.push(name);
    }
    expect(disagreements).toEqual([]);
  });

  it('every successor that exists is a current allele or a valid prefix of the release', () => {
    const current = new Set(tables.alleles.map((a) => a.name));
    for (const row of tables.deleted) {
      const r = engine.resolve(row.name);
      if (r.name === null) continue;
      if (r.kind === 'allele') expect(current.has(r.name)).toBe(true);
      else expect(engine.lookup(r.name)).toMatchObject({ found: true, facts: { status: 'valid_prefix' } });
    }
  });

  it('most deletions name a successor; those that do not say why', () => {
    const without = tables.deleted.filter((row) => engine.resolve(row.name).name === null);
    expect(without.length).toBeLessThan(25);
    for (const row of without) {
      expect(row.description).toMatch(/never assigned|contain errors|in error|artefact|assigned in error/i);
    }
  });
});

describe('G groups', () => {
  it('membership round-trips: each member normalizes into its group, each group lists its members', () => {
    const wrong: string[] = [];
    let groups = 0;
    for (const row of tables.gGroups) {
      if (row.group === null) {
        for (const member of row.members) if (engine.normalizeOne(member).g_group !== 'NONE') wrong.push(member);
        continue;
      }
      groups++;
      const lookup = engine.lookup(row.group);
      if (!lookup.found || lookup.facts.status !== 'group' || lookup.facts.members_count !== row.members.length) {
        wrong.push(row.group);
      }
      if (engine.normalizeOne(row.group).g_group !== row.group) wrong.push(row.group);
      for (const member of row.members) {
        if (engine.normalizeOne(member).g_group !== row.group) wrong.push(member);
        const facts = engine.lookup(member);
        if (!facts.found || facts.facts.status !== 'assigned' || facts.facts.g_group !== row.group) wrong.push(member);
      }
    }
    expect(groups).toBe(784); // named G groups in 3.65.0 hla_nom_g.txt
    expect(wrong).toEqual([]);
  });
});

describe('one resolver', () => {
  it('every known name means the same in verify, normalize and lookup', () => {
    const names = engine.knownNames();
    expect(names.length).toBeGreaterThan(46_652);
    const mismatches: string[] = [];
    for (const name of names) {
      const r = engine.resolve(name);
      const verdict = engine.classify(name);
      const row = engine.normalizeOne(name);
      const lookup = engine.lookup(name);
      const resolved = r.name ?? 'UNRESOLVABLE';
      if (row.current_name !== resolved) mismatches.push(`${name}: normalize`);
      if (verdict.status === 'deleted' && (verdict.successor ?? 'UNRESOLVABLE') !== resolved) {
        mismatches.push(`${name}: verify successor`);
      }
      const expectFound = r.name !== null || r.outcome === 'deleted' || r.outcome === 'mac_code';
      if (lookup.found !== expectFound) mismatches.push(`${name}: lookup found=${lookup.found}`);
      if (verdict.status === 'valid' && (!lookup.found || !['assigned', 'valid_prefix'].includes(lookup.facts.status))) {
        mismatches.push(`${name}: valid but lookup ${lookup.found ? lookup.facts.status : 404}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('history (rule 9) with the genuine 3.18.0 history file', () => {
  let withHistory: Engine;
  beforeAll(() => {
    const history = parseHistory(readFileSync(HISTORY_3180, 'utf8'), 'Allelelist_history.txt');
    withHistory = buildEngine({ ...tables, history, missingOptional: [] });
  });

  it('a 1990s interim name (odd digits) is placed through its HLA ID', () => {
    // HLA00001 was A*01011 in early releases and is A*01:01:01:01 today.
    expect(withHistory.normalizeOne('A*01011')).toMatchObject({
      current_name: 'A*01:01:01:01',
      flags: ['deprecated_name'],
    });
    expect(withHistory.classify('A*01011')).toMatchObject({ status: 'deleted', successor: 'A*01:01:01:01' });
  });

  it('first_release is the oldest release that holds the exact spelling', () => {
    expect(withHistory.lookup('A*01:01:01:01')).toMatchObject({ found: true, facts: { first_release: '3.0.0' } }); // release code 3000
  });

  it('without history the same names stay unplaced and first_release is null', () => {
    expect(engine.normalizeOne('A*01011').current_name).toBe('UNRESOLVABLE');
    expect(engine.lookup('A*01:01:01:01')).toMatchObject({ found: true, facts: { first_release: null } });
  });
});
