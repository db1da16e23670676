/** Match request validation: every failure is a 422 naming the field and why, never the content. */
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors.ts';
import { match } from '../../src/matching/match.ts';
import { MAX_LOCI_PER_SIDE, MAX_NAME_LENGTH, MAX_NAMES_PER_LOCUS } from '../../src/matching/validate.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { loadTestEngine } from '../support/engine.ts';
import { typing } from './typings.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine('3.65.0');
});

/** The 422 `match` throws for `request`, or a failed expectation. */
function rejection(request: unknown): RequestError {
  try {
    match(engine, request);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestError);
    const requestError = error as RequestError;
    expect(requestError.status).toBe(422);
    expect(requestError.code).toBe('validation');
    return requestError;
  }
  throw new Error('expected a validation error');
}

const SECRET = 'PATIENT-0042-Smith';

describe('limits', () => {
  it('are exported constants', () => {
    expect(MAX_NAMES_PER_LOCUS).toBe(4);
    expect(MAX_NAME_LENGTH).toBe(100);
    expect(MAX_LOCI_PER_SIDE).toBe(32);
  });

  it('accept a name of exactly the maximum length and 4 names', () => {
    const long = 'A*01:01'.padEnd(MAX_NAME_LENGTH, ' ');
    const response = match(engine, { recipient: typing({ A: [long, 'A*02:01', 'A*02:01', 'A*01:01'] }), donor: typing() });
    expect(response.verdicts.A).toBe('mismatch');
  });

  it(`accept ${MAX_LOCI_PER_SIDE} loci`, () => {
    const side: Record<string, string[]> = { ...typing() } as Record<string, string[]>;
    for (let i = Object.keys(side).length; i < MAX_LOCI_PER_SIDE; i++) side[`X${i}`] = [];
    expect(match(engine, { recipient: side, donor: typing() }).count).toBe('8/8');
  });
});

describe('422', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'A*01:01'],
    ['a number', 42],
  ])('the body is %s', (_label, body) => {
    expect(rejection(body).detail).toMatch(/^body: must be a JSON object/);
  });

  it('an unknown top-level field (a misspelt framework must not silently become 8/8)', () => {
    const detail = rejection({ framwork: '12/12', recipient: typing(), donor: typing() }).detail;
    expect(detail).toBe('body: unknown field; the fields are framework, recipient and donor');
  });

  it.each([['9/9'], ['8/8 '], [''], [null], [8], [['8/8']], ['ANTIGEN']])('an unknown framework %j lists the allowed ones', (framework) => {
    const detail = rejection({ framework, recipient: typing(), donor: typing() }).detail;
    expect(detail).toBe('framework: must be one of 6/6, 8/8, 10/10, 12/12, antigen (default 8/8)');
  });

  it.each(['recipient', 'donor'])('a missing %s', (side) => {
    const request: Record<string, unknown> = { recipient: typing(), donor: typing() };
    delete request[side];
    expect(rejection(request).detail).toBe(`${side}: required`);
  });

  it.each([
    ['null', null],
    ['an array', [['A*01:01']]],
    ['a string', 'A*01:01,A*02:01'],
  ])('a side that is %s', (_label, side) => {
    expect(rejection({ recipient: typing(), donor: side }).detail).toMatch(/^donor: must be an object of locus name → list of at most 4 allele names$/);
  });

  it('a locus whose value is not a list', () => {
    expect(rejection({ recipient: { ...typing(), A: 'A*01:01' }, donor: typing() }).detail).toBe(
      'recipient.A: must be a list of at most 4 allele names',
    );
    expect(rejection({ recipient: typing(), donor: { ...typing(), B: { 0: 'B*07:02' } } }).detail).toBe(
      'donor.B: must be a list of at most 4 allele names',
    );
  });

  it('more than 4 names at a locus, ignored loci included', () => {
    const five = ['A*01:01', 'A*02:01', 'A*03:01', 'A*11:01', 'A*24:02'];
    expect(rejection({ recipient: typing({ A: five }), donor: typing() }).detail).toBe('recipient.A: more than 4 names');
    expect(rejection({ recipient: typing(), donor: { ...typing(), DRB3: five } }).detail).toBe('donor.DRB3: more than 4 names');
  });

  it('a name that is not a string names its position', () => {
    expect(rejection({ recipient: typing({ A: ['A*01:01', 'A*02:01', 7 as unknown as string] }), donor: typing() }).detail).toBe(
      'recipient.A[2]: must be a string',
    );
    expect(rejection({ recipient: typing(), donor: typing({ C: [null as unknown as string] }) }).detail).toBe(
      'donor.C[0]: must be a string',
    );
  });

  it('a name over the maximum length, without echoing it', () => {
    const name = SECRET.repeat(10);
    const error = rejection({ recipient: typing({ DRB1: ['DRB1*15:01', name] }), donor: typing() });
    expect(error.detail).toBe(`recipient.DRB1[1]: longer than ${MAX_NAME_LENGTH} characters`);
    expect(error.detail).not.toContain(SECRET);
  });

  it(`more than ${MAX_LOCI_PER_SIDE} loci on a side`, () => {
    const side: Record<string, string[]> = {};
    for (let i = 0; i <= MAX_LOCI_PER_SIDE; i++) side[`L${i}`] = [];
    expect(rejection({ recipient: typing(), donor: side }).detail).toBe(`donor: more than ${MAX_LOCI_PER_SIDE} loci`);
  });

  it('a key that is not printable is named by its position, never echoed', () => {
    const error = rejection({ recipient: { ...typing(), [`${SECRET} notes`]: 'x' }, donor: typing() });
    expect(error.detail).toBe('recipient[locus #7]: must be a list of at most 4 allele names');
    expect(error.detail).not.toContain(SECRET);
  });

  it('a locus given twice under two spellings', () => {
    expect(rejection({ recipient: { ...typing(), 'HLA-A': ['A*01:01'] }, donor: typing() }).detail).toBe(
      'recipient.HLA-A: locus A is given twice',
    );
    expect(rejection({ recipient: typing(), donor: { ...typing(), Cw: ['C*07:02'] } }).detail).toBe(
      'donor.Cw: locus C is given twice',
    );
  });

  it('a wrongly cased locus key (names are case-sensitive)', () => {
    const { A, ...rest } = typing();
    expect(rejection({ recipient: { ...rest, a: A }, donor: typing() }).detail).toBe(
      'recipient.a: not a locus name; locus names are case-sensitive (A, B, C, DRB1, DQB1, DPB1)',
    );
    expect(rejection({ recipient: typing(), donor: { ...typing(), 'hla-dpb1': [] } }).detail).toMatch(/^donor\.hla-dpb1: not a locus name/);
  });

  it('a name that resolves to another locus than its key, at a scored locus', () => {
    expect(rejection({ recipient: typing({ A: ['A*01:01', 'B*07:02'] }), donor: typing() }).detail).toBe(
      'recipient.A[1]: resolves to an allele of another locus',
    );
    expect(rejection({ framework: 'antigen', recipient: typing(), donor: typing({ DRB1: ['DRB3*01:01'] }) }).detail).toBe(
      'donor.DRB1[0]: resolves to an allele of another locus',
    );
  });
});
