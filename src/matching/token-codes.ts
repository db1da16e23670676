/**
 * What one reported name means to matching, packed into one small integer per name and level:
 * the comparable token (an interned id of `allele_2field`, or of the §7 antigen), the locus the
 * name resolves to, and whether it is unresolvable, too coarse, or a null allele.
 *
 * Every code is derived from the engine's one resolver (`normalizeOne`, `resolve`,
 * `isFirstFieldOnly`, `antigen`) the first time a name is seen. The engine is immutable, so the
 * derivation can be kept; keeping it as integers lets a match compare tokens without touching a
 * string or a row object, which is what makes bulk matching fast.
 */
import type { Engine } from '../nomenclature/engine-types.ts';
import { type NormalizeRow, UNRESOLVABLE } from '../nomenclature/types.ts';
import { MATCH_LOCI } from './frameworks.ts';
import type { Level } from './types.ts';

/** The name does not resolve (R6: the locus is potential). */
export const UNRESOLVED = 1;
/** The name resolves but cannot be called at this level: first-field only, or UNCERTAIN antigen (R6). */
export const TOO_COARSE = 2;
/** A null allele is involved (flag `null_allele`). */
export const NULL_ALLELE = 4;
/** At antigen level a NULL expresses nothing and leaves the list (R3). */
export const NO_TOKEN = 8;

const LOCUS_SHIFT = 4;
const LOCUS_BITS = 15;
/** Locus code of a name that resolves to a locus no framework scores. */
const OTHER_LOCUS = LOCUS_BITS;
const TOKEN_SHIFT = 8;

/** Entries kept per level before everything is forgotten, like the engine's own memo. */
const CODES_LIMIT = 200_000;

/** Locus code of `MATCH_LOCI[slot]` as packed in a code. */
export function locusCode(slot: number): number {
  return slot + 1;
}

export function locusOfCode(code: number): number {
  return (code >> LOCUS_SHIFT) & LOCUS_BITS;
}

export function tokenOfCode(code: number): number {
  return code >> TOKEN_SHIFT;
}

export class TokenCodes {
  private readonly alleleCodes = new Map<string, number>();
  private readonly antigenCodes = new Map<string, number>();
  private readonly tokenIds = new Map<string, number>();

  constructor(readonly engine: Engine) {}

  code(name: string, level: Level): number {
    const codes = level === 'allele' ? this.alleleCodes : this.antigenCodes;
    let code = codes.get(name);
    if (code === undefined) {
      code = level === 'allele' ? this.alleleCode(name) : this.antigenCode(name);
      codes.set(name, code);
    }
    return code;
  }

  /**
   * Bounds memory whatever callers send. Called between matches only: ids handed out during one
   * match must stay comparable until it ends.
   */
  trim(): void {
    if (this.alleleCodes.size + this.antigenCodes.size < CODES_LIMIT) return;
    this.alleleCodes.clear();
    this.antigenCodes.clear();
    this.tokenIds.clear();
  }

  /** R1: allele level compares `allele_2field`. */
  private alleleCode(name: string): number {
    const row = this.engine.normalizeOne(name);
    if (row.current_name === UNRESOLVABLE) return UNRESOLVED;
    const isNull = isNullRow(row);
    // A null allele is never its expressed 2-field family: `A*01:01:01:02N` reduces to `A*01:01`
    // (§5), yet matching it with `A*01:01:01:01` would call a non-expressed allele a match.
    const token = isNull && !row.allele_2field.endsWith('N') ? `${row.allele_2field}N` : row.allele_2field;
    let flags = isNull ? NULL_ALLELE : 0;
    // `A*02`, `A*02:XX`, `DRB1*15`: one field, unless that one-field name is an assigned allele.
    if (!token.includes(':') && this.engine.isFirstFieldOnly(this.engine.resolve(name))) flags |= TOO_COARSE;
    return this.pack(token, row, flags);
  }

  /** R3 / §7: antigen level compares the WMDA antigen; a NULL leaves the list. */
  private antigenCode(name: string): number {
    const row = this.engine.normalizeOne(name);
    if (row.current_name === UNRESOLVABLE) return UNRESOLVED;
    const antigen = this.engine.antigen(name);
    const nullFlag = isNullRow(row) ? NULL_ALLELE : 0;
    switch (antigen.kind) {
      case 'antigen':
        return this.pack(`#${antigen.antigen}`, row, nullFlag);
      case 'null':
        return this.pack('', row, NULL_ALLELE | NO_TOKEN);
      case 'uncertain':
        return this.pack('', row, nullFlag | TOO_COARSE);
      case 'unresolvable':
        return UNRESOLVED;
    }
  }

  private pack(token: string, row: NormalizeRow, flags: number): number {
    let id = this.tokenIds.get(token);
    if (id === undefined) {
      id = this.tokenIds.size;
      this.tokenIds.set(token, id);
    }
    return (id << TOKEN_SHIFT) | (locusOf(row.allele_2field) << LOCUS_SHIFT) | flags;
  }
}

const SLOT_OF_LOCUS: ReadonlyMap<string, number> = new Map(MATCH_LOCI.map((locus, slot) => [locus, slot]));

function locusOf(resolved: string): number {
  const slot = SLOT_OF_LOCUS.get(resolved.slice(0, resolved.indexOf('*')));
  return slot === undefined ? OTHER_LOCUS : locusCode(slot);
}

/** §8: a typing whose resolved name ends in `N`, or whose every member does (normalize's flag). */
function isNullRow(row: NormalizeRow): boolean {
  return row.current_name.endsWith('N') || row.flags.includes('null_allele');
}

/** One table per engine (a process may serve several releases), dropped with its engine; the last one used is also kept at hand. */
const byEngine = new WeakMap<Engine, TokenCodes>();
let lastCodes: TokenCodes | null = null;

export function tokenCodesOf(engine: Engine): TokenCodes {
  if (lastCodes !== null && lastCodes.engine === engine) return lastCodes;
  let codes = byEngine.get(engine);
  if (codes === undefined) {
    codes = new TokenCodes(engine);
    byEngine.set(engine, codes);
  }
  lastCodes = codes;
  return codes;
}
