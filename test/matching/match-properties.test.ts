/**
 * Properties of match over names drawn from the real 3.65.0 release (current names, prefixes,
 * deleted and legacy names, group names) plus XX, MAC and made-up names.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MATCH_LOCI } from '../../src/matching/frameworks.ts';
import { match } from '../../src/matching/match.ts';
import { FRAMEWORKS, type Framework, type MatchResponse, type Typing } from '../../src/matching/types.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { UNRESOLVABLE } from '../../src/nomenclature/types.ts';
import { loadTestEngine } from '../support/engine.ts';

let engine: Engine;
/** Per locus: names of the release that resolve to that locus or do not resolve at all. */
const pools = new Map<string, string[]>();

beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
  const loci = new Set<string>(MATCH_LOCI);
  for (const name of engine.knownNames()) {
    const star = name.indexOf('*');
    const written = name.slice(0, star);
    const locus = written === 'Cw' ? 'C' : written;
    if (!loci.has(locus)) continue;
    const row = engine.normalizeOne(name);
    // A deleted name renamed into another locus is a 422 under this key: not a typing of it.
    if (row.current_name !== UNRESOLVABLE && !row.allele_2field.startsWith(`${locus}*`)) continue;
    let pool = pools.get(locus);
    if (pool === undefined) pools.set(locus, (pool = []));
    pool.push(name);
  }
});

const RUNS = { numRuns: 300 };

function nameOf(locus: string): fc.Arbitrary<string> {
  const pool = pools.get(locus)!;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...pool), weight: 8 },
    // A few names drawn from a short list so that the two sides often share them.
    { arbitrary: fc.constantFrom(...pool.slice(0, 3), ...pool.slice(-3)), weight: 4 },
    {
      arbitrary: fc.constantFrom(`${locus}*02:XX`, `${locus}*01`, `${locus}*02:AB`, `${locus}*99:99:99`, 'nonsense', ''),
      weight: 1,
    },
  );
}

const typingArb: fc.Arbitrary<Typing> = fc.constant(null).chain(() => {
  const model: Record<string, fc.Arbitrary<readonly string[]>> = {};
  for (const locus of MATCH_LOCI) model[locus] = fc.array(nameOf(locus), { minLength: 0, maxLength: 4 });
  return fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Typing>;
});

/** Like `typingArb`, but every locus mostly holds two names, which makes matches likelier. */
const denseTypingArb: fc.Arbitrary<Typing> = fc.constant(null).chain(() => {
  const model: Record<string, fc.Arbitrary<readonly string[]>> = {};
  for (const locus of MATCH_LOCI) model[locus] = fc.array(nameOf(locus), { minLength: 1, maxLength: 2 });
  return fc.record(model) as fc.Arbitrary<Typing>;
});

const frameworkArb: fc.Arbitrary<Framework> = fc.constantFrom(...FRAMEWORKS);

function parts(count: string): [number, number] {
  const [matched, denominator] = count.split('/').map(Number);
  return [matched, denominator];
}

function checkInvariants(response: MatchResponse): void {
  const verdicts = Object.values(response.verdicts);
  const scored = verdicts.filter((verdict) => verdict !== 'potential').length;
  expect(response.flags.includes('resolution_insufficient')).toBe(scored < verdicts.length);
  expect([...response.flags].sort()).toEqual(response.flags);
  if (scored === 0) {
    expect(response.count).toBe('UNRESOLVABLE');
    expect(response.hvg_mismatches).toBe(0);
    expect(response.gvh_mismatches).toBe(0);
    return;
  }
  const [matched, denominator] = parts(response.count);
  expect(denominator).toBe(2 * scored);
  expect(matched).toBeGreaterThanOrEqual(0);
  expect(matched).toBeLessThanOrEqual(denominator);
  const mismatchedLoci = verdicts.filter((verdict) => verdict === 'mismatch').length;
  expect(denominator - matched).toBeGreaterThanOrEqual(mismatchedLoci);
  expect(denominator - matched).toBeLessThanOrEqual(2 * mismatchedLoci);
  expect(response.hvg_mismatches).toBeLessThanOrEqual(2 * mismatchedLoci);
  expect(response.gvh_mismatches).toBeLessThanOrEqual(2 * mismatchedLoci);
}

describe('match properties on the real release', () => {
  it('swapping donor and recipient swaps HvG and GvH and keeps count, verdicts and flags', () => {
    fc.assert(
      fc.property(frameworkArb, fc.oneof(typingArb, denseTypingArb), fc.oneof(typingArb, denseTypingArb), (framework, r, d) => {
        const forward = match(engine, { framework, recipient: r, donor: d });
        const backward = match(engine, { framework, recipient: d, donor: r });
        expect(backward.count).toBe(forward.count);
        expect(backward.verdicts).toEqual(forward.verdicts);
        expect(backward.flags).toEqual(forward.flags);
        expect(backward.hvg_mismatches).toBe(forward.gvh_mismatches);
        expect(backward.gvh_mismatches).toBe(forward.hvg_mismatches);
        checkInvariants(forward);
      }),
      RUNS,
    );
  });

  it('a typing fully matches itself unless a locus is potential', () => {
    fc.assert(
      fc.property(frameworkArb, fc.oneof(typingArb, denseTypingArb), (framework, t) => {
        const response = match(engine, { framework, recipient: t, donor: t });
        for (const verdict of Object.values(response.verdicts)) expect(verdict).not.toBe('mismatch');
        if (response.count !== 'UNRESOLVABLE') {
          const [matched, denominator] = parts(response.count);
          expect(matched).toBe(denominator);
        }
        expect(response.hvg_mismatches).toBe(0);
        expect(response.gvh_mismatches).toBe(0);
        checkInvariants(response);
      }),
      RUNS,
    );
  });

  it('the order of names inside a locus does not matter', () => {
    fc.assert(
      fc.property(frameworkArb, denseTypingArb, typingArb, (framework, r, d) => {
        const reversed: Record<string, readonly string[]> = {};
        for (const [locus, names] of Object.entries(r)) reversed[locus] = [...names].reverse();
        expect(match(engine, { framework, recipient: reversed, donor: d })).toEqual(
          match(engine, { framework, recipient: r, donor: d }),
        );
      }),
      RUNS,
    );
  });

  it('one resolver: writing every name as its current name changes nothing', () => {
    fc.assert(
      fc.property(frameworkArb, denseTypingArb, denseTypingArb, (framework, r, d) => {
        const current: Record<string, readonly string[]> = {};
        for (const [locus, names] of Object.entries(r)) {
          current[locus] = names.map((name) => {
            const row = engine.normalizeOne(name);
            return row.current_name === UNRESOLVABLE ? name : row.current_name;
          });
        }
        expect(match(engine, { framework, recipient: current, donor: d })).toEqual(
          match(engine, { framework, recipient: r, donor: d }),
        );
      }),
      RUNS,
    );
  });

  it('loci outside the framework never change the answer', () => {
    fc.assert(
      fc.property(frameworkArb, typingArb, typingArb, typingArb, (framework, r, d, noise) => {
        const scoredLoci = new Set(Object.keys(match(engine, { framework, recipient: {}, donor: {} }).verdicts));
        const noisy: Record<string, readonly string[]> = { ...r, DRB3: ['DRB3*01:01'], MICA: [] };
        for (const [locus, names] of Object.entries(noise)) if (!scoredLoci.has(locus)) noisy[locus] = names;
        expect(match(engine, { framework, recipient: noisy, donor: d })).toEqual(
          match(engine, { framework, recipient: r, donor: d }),
        );
      }),
      RUNS,
    );
  });
});
