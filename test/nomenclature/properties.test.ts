/**
 * Property tests: no input string makes verify, normalize or lookup throw, and their outputs keep
 * their invariants. Inputs mix arbitrary Unicode with pieces of real names so that the resolver's
 * every branch is reached, not only the "nothing here" one.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { TOKEN_STATUSES, type VerifyResponse } from '../../src/nomenclature/types.ts';
import { loadTestEngine, loadTestTables } from '../support/engine.ts';

let engine: Engine;
let realNames: string[];
beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
  const tables = await loadTestTables('3.65.0');
  realNames = [
    ...tables.alleles.filter((_, i) => i % 97 === 0).map((a) => a.name),
    ...tables.deleted.map((d) => d.name),
    ...tables.conversions.filter((_, i) => i % 13 === 0).map((c) => c.legacy),
    'A*02:XX',
    'A*02:AB',
    'A*02:01g',
    'A*02:01:01G',
    'A*99:01:01G',
    'KIR2DL1*001',
    'Cw*07:02',
  ];
});

const fragments = () =>
  fc.constantFrom(
    '*', ':', 'HLA-', 'A', 'Cw', 'DRB1', 'KIR', '2DL1', '01', '02', '0101', 'N', 'G', 'P', 'g', 'XX', 'AB', '/', ' ', '\n',
    '_', '\u0000', '\uD800', '😀', 'é', '→',
  );

/** Text made of real names, name fragments and arbitrary Unicode. */
function textArbitrary(maxPieces: number) {
  return fc
    .array(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fragments(),
        fc.integer({ min: 0, max: 10_000 }).map((i) => realNames[i % realNames.length]),
      ),
      { maxLength: maxPieces },
    )
    .map((pieces) => pieces.join(''));
}

function checkVerifyInvariants(r: VerifyResponse): void {
  expect(r.release).toBe('3.65.0');
  expect(Object.keys(r.counts).sort()).toEqual([...TOKEN_STATUSES].sort());
  for (const status of TOKEN_STATUSES) {
    expect(r.counts[status]).toBe(r.tokens.filter((t) => t.status === status).length);
  }
  expect(r.clean).toBe(r.counts.hallucinated === 0 && r.counts.fabricated_group === 0 && r.counts.deleted === 0);
  for (let i = 1; i < r.tokens.length; i++) expect(r.tokens[i - 1].token < r.tokens[i].token).toBe(true);
  for (const t of r.tokens) {
    expect(t.occurrences).toBeGreaterThan(0);
    expect(t.note.length).toBeGreaterThan(0);
    expect(t.token.startsWith('HLA-')).toBe(false);
    if (t.status === 'deleted' && t.successor !== undefined) expect(t.current_2field).toBeDefined();
  }
}

describe('no input throws, outputs keep their invariants', () => {
  it('verify', () => {
    fc.assert(
      fc.property(textArbitrary(200), (text) => {
        checkVerifyInvariants(engine.verify(text));
      }),
      { numRuns: 400 },
    );
  });

  it('normalize and lookup', () => {
    fc.assert(
      fc.property(fc.array(textArbitrary(4), { maxLength: 20 }), (typings) => {
        const r = engine.normalize(typings);
        expect(r.rows).toHaveLength(typings.length);
        r.rows.forEach((row, i) => {
          expect(row.reported).toBe(typings[i]);
          expect(row.flags).toEqual([...row.flags].sort());
          const unresolved = row.current_name === 'UNRESOLVABLE';
          expect(row.allele_2field === 'UNRESOLVABLE').toBe(unresolved);
          expect(row.g_group === 'UNRESOLVABLE').toBe(unresolved);
          const lookup = engine.lookup(typings[i]);
          if (!unresolved) expect(lookup.found).toBe(true);
          if (!lookup.found) expect(lookup.detail.length).toBeLessThan(400);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('inputs of up to 200,000 characters of any Unicode', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 150_000, maxLength: 200_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (noise, i) => {
          const name = realNames[i % realNames.length];
          const text = `${noise.slice(0, 100_000)} ${name} ${noise.slice(100_000)}`.slice(0, 200_000);
          checkVerifyInvariants(engine.verify(text));
          expect(engine.normalize([text]).rows[0].reported).toBe(text);
          const lookup = engine.lookup(text);
          if (!lookup.found) expect(lookup.detail.length).toBeLessThan(400);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('pathological long runs: digits, letters, colons, stars', () => {
    for (const unit of ['0', 'A', ':', '*', 'A*', '01:', 'A*01', 'HLA-']) {
      const text = unit.repeat(Math.floor(200_000 / unit.length));
      checkVerifyInvariants(engine.verify(text));
      checkVerifyInvariants(engine.verify(`A*${text}`));
      expect(engine.normalizeOne(text).current_name).toBe('UNRESOLVABLE');
      expect(engine.lookup(text).found).toBe(false);
    }
  });
});
