/**
 * The WMDA antigen of a typing (DOMAIN_RULES §7), for antigen-level matching.
 */
import type { Resolution } from './engine-types.ts';
import { trailingLetter } from './grammar.ts';
import type { Reductions } from './reduction.ts';
import type { ReleaseIndex } from './release-index.ts';
import type { Antigen } from './types.ts';

/** DNA locus → serology locus of rel_ser_ser.txt. */
const SEROLOGY_LOCUS: Readonly<Record<string, string>> = {
  A: 'A',
  B: 'B',
  C: 'Cw',
  DRB1: 'DR',
  DRB3: 'DR',
  DRB4: 'DR',
  DRB5: 'DR',
  DQB1: 'DQ',
};

const NULL: Antigen = Object.freeze({ kind: 'null' });
const UNCERTAIN: Antigen = Object.freeze({ kind: 'uncertain' });
const UNRESOLVABLE: Antigen = Object.freeze({ kind: 'unresolvable' });
/** Marks a member whose serology is unknown (`?`, an unlisted 4-digit code, no row). */
const UNKNOWN = '?';
const NULL_CODE = '0';

export class AntigenMapper {
  private readonly memo = new Map<string, Antigen>();

  constructor(
    private readonly index: ReleaseIndex,
    private readonly reductions: Reductions,
  ) {}

  antigenOf(resolution: Resolution): Antigen {
    const { name, kind } = resolution;
    if (name === null || kind === null) return UNRESOLVABLE;
    let antigen = this.memo.get(name);
    if (antigen === undefined) {
      antigen = this.compute(name, kind);
      this.memo.set(name, antigen);
    }
    return antigen;
  }

  private compute(name: string, kind: NonNullable<Resolution['kind']>): Antigen {
    if (name.endsWith('N')) return NULL;
    const all = this.reductions.members(name, kind);
    // Members without an expression suffix; a typing that is itself suffixed (L, S, Q …) keeps its own.
    let members = all.filter((m) => trailingLetter(m) === '');
    if (members.length === 0) members = all.filter((m) => !m.endsWith('N'));
    if (members.length === 0) return NULL;
    const locus = name.slice(0, name.indexOf('*'));
    const serologyLocus = SEROLOGY_LOCUS[locus] ?? locus;
    const values = new Set<string>();
    for (const member of members) {
      values.add(this.codeOf(member, serologyLocus));
      if (values.size > 1) return UNCERTAIN;
    }
    const only = [...values][0];
    if (only === UNKNOWN) return UNCERTAIN;
    if (only === NULL_CODE) return NULL;
    return { kind: 'antigen', locus: serologyLocus, antigen: only };
  }

  /**
   * The first non-empty of the four classic columns, collapsed to one antigen. A column that lists
   * several codes collapsing to different antigens (`0/2` for a Q allele: null or A2) is UNKNOWN,
   * not its first value: the release itself says it cannot tell.
   */
  private codeOf(member: string, serologyLocus: string): string {
    const columns = this.index.dnaSerology.get(member);
    if (!columns) return UNKNOWN;
    for (let i = 0; i < 4 && i < columns.length; i++) {
      const column = columns[i];
      if (column.length === 0) continue;
      const first = this.collapse(column[0], serologyLocus);
      for (let k = 1; k < column.length; k++) {
        if (this.collapse(column[k], serologyLocus) !== first) return UNKNOWN;
      }
      return first;
    }
    return UNKNOWN;
  }

  /**
   * Associated-antigen codes collapse to their antigen (`1501` → B62 but DR15; 3.58.0 lists 3-digit
   * ones such as `203`); other short codes pass through (`02` → `2`, `0` stays NULL).
   */
  private collapse(code: string, serologyLocus: string): string {
    if (!/^[0-9]+$/.test(code)) return UNKNOWN;
    const antigen = this.index.associatedAntigen.get(serologyLocus)?.get(code);
    if (antigen !== undefined) return antigen;
    return code.length < 4 ? String(Number(code)) : UNKNOWN;
  }
}
