/**
 * The operations shared by the API and the CLI: validation wording (field and reason, never the
 * content) and the bodies they return.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import {
  alleleOperation,
  healthOperation,
  matchOperation,
  normalizeOperation,
  verifyOperation,
} from '../../src/operations/index.ts';
import { loadTestEngine } from '../support/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
});

function failure(run: () => unknown): RequestError {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected a RequestError');
}

describe('validation details', () => {
  it.each([
    ['verify', () => verifyOperation(engine, undefined), 'body must be a JSON object'],
    ['verify', () => verifyOperation(engine, []), 'body must be a JSON object'],
    ['verify', () => verifyOperation(engine, {}), 'body/text is required'],
    ['verify', () => verifyOperation(engine, { text: 42 }), 'body/text must be a string'],
    ['verify', () => verifyOperation(engine, { text: 'x'.repeat(200_001) }), 'body/text must be at most 200000 characters'],
    ['verify', () => verifyOperation(engine, { text: 'A*01:01', mode: 'fast' }), 'body has a field that is not accepted (accepted: text)'],
    ['normalize', () => normalizeOperation(engine, { typings: 'A*01:01' }), 'body/typings must be an array'],
    ['normalize', () => normalizeOperation(engine, { typings: Array(5_001).fill('A*01:01') }), 'body/typings must have at most 5000 items'],
    ['normalize', () => normalizeOperation(engine, { typings: ['A*01:01', 7] }), 'body/typings/1 must be a string'],
    ['match', () => matchOperation(engine, { recipient: {} }), 'body/donor is required'],
    ['match', () => matchOperation(engine, { recipient: [], donor: {} }), 'body/recipient must be a JSON object'],
    ['match', () => matchOperation(engine, { recipient: { A: 'A*01:01' }, donor: {} }), 'body/recipient/A must be an array'],
    [
      'match',
      () => matchOperation(engine, { recipient: { A: ['A*01:01', 'A*01:01', 'A*01:01', 'A*01:01', 'A*01:01'] }, donor: {} }),
      'body/recipient/A must have at most 4 items',
    ],
    [
      'match',
      () => matchOperation(engine, { framework: '9/9', recipient: {}, donor: {} }),
      'body/framework must be one of 6/6, 8/8, 10/10, 12/12, antigen',
    ],
  ])('%s: %s', (_operation, run, detail) => {
    const error = failure(run);
    expect(error.status).toBe(422);
    expect(error.detail).toBe(detail);
  });

  it('never quotes a field name that could be content', () => {
    const secret = 'Patient Jane Doe A*02:01';
    const error = failure(() => matchOperation(engine, { recipient: { [secret]: 'x' }, donor: {} }));
    expect(error.detail).toBe('body/recipient/<key> must be an array');
    const extra = failure(() => verifyOperation(engine, { text: 'A*01:01', [secret]: 1 }));
    expect(extra.detail).not.toContain('Jane');
  });

  it('never quotes the value that failed', () => {
    const text = `A*02:01 secret-marker ${'y'.repeat(200_000)}`;
    const error = failure(() => verifyOperation(engine, { text }));
    expect(error.detail).not.toContain('secret-marker');
    expect(error.detail.length).toBeLessThan(100);
  });
});

describe('answers', () => {
  it('verify returns the engine verdicts, with release and attribution', () => {
    const body = verifyOperation(engine, { text: 'A*02:01 and B*99:99' });
    expect(body).toEqual(engine.verify('A*02:01 and B*99:99'));
    expect(body.release).toBe('3.65.0');
    expect(body.attribution).toMatch(/IPD-IMGT\/HLA/);
  });

  it('normalize returns one row per typing, verbatim reported', () => {
    const body = normalizeOperation(engine, { typings: ['A*0101', ' Cw*0702', 'B*99:99'] });
    expect(body.rows.map((row) => row.reported)).toEqual(['A*0101', ' Cw*0702', 'B*99:99']);
    expect(body.rows[2].current_name).toBe('UNRESOLVABLE');
  });

  it('allele answers facts, and 404 with the engine detail for an unknown name', () => {
    expect(alleleOperation(engine, 'A*01:01:01:01')).toMatchObject({ status: 'assigned', release: '3.65.0' });
    const error = failure(() => alleleOperation(engine, 'A*99:99'));
    expect(error.status).toBe(404);
    expect(error.detail).toBe("'A*99:99' is not assigned in release 3.65.0");
  });

  it('match delegates to the matcher', () => {
    const body = matchOperation(engine, {
      recipient: { A: ['A*01:01', 'A*01:01'], B: ['B*08:01', 'B*07:02'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*03:01', 'DRB1*15:01'] },
      donor: { A: ['A*01:01', 'A*02:01'], B: ['B*08:01', 'B*07:02'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*03:01', 'DRB1*15:01'] },
    });
    expect(body).toMatchObject({ release: '3.65.0', framework: '8/8', count: '7/8', hvg_mismatches: 1, gvh_mismatches: 0 });
  });

  it('health reports the release and its allele count', () => {
    expect(healthOperation(engine, 12.7)).toEqual({
      ok: true,
      release: '3.65.0',
      alleles: 46652,
      uptime_s: 12,
      missing_optional_files: [...engine.missingOptional],
    });
  });
});
