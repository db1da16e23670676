/**
 * Reductions of a resolved name (DOMAIN_RULES §3.2, §5): its members, the 2-field name, the
 * G group and whether it is null. Computed lazily per resolved name and kept: a release has a
 * bounded number of names, so the memo cannot grow without limit.
 */
import type { ResolvedKind } from './engine-types.ts';
import { nameParts, trailingLetter } from './grammar.ts';
import type { ReleaseIndex } from './release-index.ts';

export const AMBIGUOUS = 'AMBIGUOUS';
export const NO_G_GROUP = 'NONE';

export interface Reduction {
  readonly members: readonly string[];
  readonly allele2Field: string;
  readonly gGroup: string;
  readonly allNull: boolean;
}

export class Reductions {
  private readonly memo = new Map<string, Reduction>();

  constructor(private readonly index: ReleaseIndex) {}

  of(name: string, kind: ResolvedKind): Reduction {
    let r = this.memo.get(name);
    if (r === undefined) {
      r = this.compute(name, kind);
      this.memo.set(name, r);
    }
    return r;
  }

  members(name: string, kind: ResolvedKind): readonly string[] {
    if (kind === 'allele') return [name];
    if (kind === 'group') {
      return (name.endsWith('G') ? this.index.gGroupMembers : this.index.pGroupMembers).get(name) ?? [];
    }
    const suffix = trailingLetter(name);
    return this.index.prefixMembers.get(suffix ? name.slice(0, -1) : name) ?? [];
  }

  /**
   * Locus and first two fields (one stays one), plus an expression suffix only when every
   * assigned allele under that prefix carries the same one.
   */
  reduceTo2Field(name: string): string {
    const parts = nameParts(name);
    if (!parts) return name;
    const base = `${parts.locus}*${parts.fields.slice(0, 2).join(':')}`;
    const under = this.index.prefixMembers.get(base);
    if (!under || under.length === 0) return base;
    const suffix = trailingLetter(under[0]);
    if (suffix === '') return base;
    for (const member of under) if (!member.endsWith(suffix)) return base;
    return base + suffix;
  }

  private compute(name: string, kind: ResolvedKind): Reduction {
    const members = this.members(name, kind);
    let gGroup: string;
    if (kind === 'group' && name.endsWith('G')) {
      gGroup = name;
    } else {
      const groups = new Set<string>();
      for (const m of members) {
        groups.add(this.index.gGroupOf.get(m) ?? NO_G_GROUP);
        if (groups.size > 1) break;
      }
      gGroup = groups.size === 1 ? [...groups][0] : groups.size === 0 ? NO_G_GROUP : AMBIGUOUS;
    }
    return {
      members,
      allele2Field: this.reduceTo2Field(name),
      gGroup,
      allNull: members.length > 0 && members.every((m) => m.endsWith('N')),
    };
  }
}
