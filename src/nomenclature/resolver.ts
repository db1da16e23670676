/**
 * The one resolver (DOMAIN_RULES §3). Every endpoint asks it what a name means; its rules are
 * applied top to bottom in `resolveName`, and rules that rewrite a name recurse on the rewrite.
 */
import type { DeletedRow } from '../reference/tables.ts';
import type { Resolution, ResolvedKind } from './engine-types.ts';
import { type NameShape, parseName, splitLegacyDigits, stripName, trailingLetter } from './grammar.ts';
import type { ReleaseIndex } from './release-index.ts';
import { successorInDescription } from './successor.ts';
import type { Flag } from './types.ts';

/** Deletion chains and rewrites are short; anything deeper is a cycle in the data. */
const MAX_DEPTH = 12;
const MEMO_LIMIT = 200_000;

const NONEXISTENT: Resolution = Object.freeze({
  name: null,
  kind: null,
  outcome: 'nonexistent',
  flags: Object.freeze(['nonexistent_allele'] as Flag[]),
});

/** A name the release records as gone, with nothing named to replace it. */
const DELETED_WITHOUT_SUCCESSOR: Resolution = Object.freeze({
  name: null,
  kind: null,
  outcome: 'deleted',
  flags: Object.freeze(['deprecated_name', 'nonexistent_allele'] as Flag[]),
});

function withFlag(r: Resolution, ...flags: Flag[]): Resolution {
  const merged = [...new Set([...r.flags, ...flags])].sort();
  return { ...r, flags: merged };
}

function found(name: string, kind: ResolvedKind, flags: Flag[] = []): Resolution {
  const outcome = kind === 'allele' ? 'assigned' : kind;
  return { name, kind, outcome, flags: flags.sort() };
}

/**
 * The colon form of a colon-less legacy name: the 2009 table's, else the two-digit split (null for
 * an odd digit count or a name the table says `None` for). Rule 7 and lookup's 404 wording use it.
 */
export function legacyColonForm(
  name: string,
  shape: Extract<NameShape, { kind: 'legacy' }>,
  index: ReleaseIndex,
): string | null {
  const converted = index.conversions.get(name);
  return converted !== undefined ? converted : splitLegacyDigits(shape.locus, shape.digits, shape.suffix);
}

export class Resolver {
  private readonly memo = new Map<string, Resolution>();
  private readonly successors = new Map<DeletedRow, Resolution | null>();

  constructor(private readonly index: ReleaseIndex) {}

  resolve(reported: string): Resolution {
    let r = this.memo.get(reported);
    if (r === undefined) {
      r = this.resolveName(stripName(reported), 0);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(reported, r);
    }
    return r;
  }

  /** A prefix of 1–3 fields is valid when it has members; with a suffix, only if all carry it. */
  prefixIsValid(base: string, suffix: string): boolean {
    const members = this.index.prefixMembers.get(base);
    if (!members) return false;
    return suffix === '' || members.every((m) => m.endsWith(suffix));
  }

  private resolveName(name: string, depth: number): Resolution {
    if (depth > MAX_DEPTH) return NONEXISTENT;
    const index = this.index;
    const shape = parseName(name);
    switch (shape.kind) {
      // 1. colon-style Cw → the C name
      case 'cw_colon':
        return withFlag(this.resolveName(shape.rewritten, depth + 1), 'deprecated_name');
      // 2. MAC: recognised, never expanded
      case 'mac':
        return { name: null, kind: null, outcome: 'mac_code', flags: ['mac_code'] };
      // 3. XX → the first-field prefix
      case 'xx':
        return withFlag(this.resolveName(shape.rewritten, depth + 1), 'xx_code');
      // 4. lg → the 2-field name
      case 'lg':
        return withFlag(this.resolveName(shape.rewritten, depth + 1), 'lg_notation');
      // 5. an existing G or P group name → itself
      case 'group': {
        const members = shape.groupType === 'G' ? index.gGroupMembers : index.pGroupMembers;
        if (members.has(name)) {
          return found(name, 'group', [shape.groupType === 'G' ? 'g_group_name' : 'p_group_name']);
        }
        return { name: null, kind: null, outcome: 'fabricated_group', flags: ['nonexistent_allele'] };
      }
      case 'kir':
        return { name: null, kind: null, outcome: 'out_of_scope', flags: ['out_of_scope'] };
      case 'none':
        return NONEXISTENT;
      case 'legacy':
      case 'name':
        break;
    }

    // 6. the exact spelling is a deletion record → its successor. A spelling that is also a
    // current name stays current (E*01:130 is listed as "suffix added … becoming E*01:130").
    const deletion = index.deleted.get(name);
    if (deletion && !index.current.has(name)) return this.deletedOutcome(deletion, depth);

    if (shape.kind === 'legacy') {
      // 7. legacy colon-less → its colon form; the 2009 table wins where it lists the spelling
      // (DPB1*1901 meant DPB1*19:01, although DPB1*1901:01N now exists).
      const converted = index.conversions.get(name);
      if (converted === null) return this.fromHistory(name, depth) ?? DELETED_WITHOUT_SUCCESSOR;
      if (converted !== undefined) return withFlag(this.resolveName(converted, depth + 1), 'deprecated_name');
      // An unlisted colon-less name may be a current one: DPB1*1351 (4-digit first field).
      const current = this.assignedOrPrefix(name, shape.locus, [shape.digits], shape.suffix);
      if (current) return current;
      const split = legacyColonForm(name, shape, index);
      if (split !== null) {
        const r = this.resolveName(split, depth + 1);
        if (r.outcome !== 'nonexistent') return withFlag(r, 'deprecated_name');
      }
      // no colon form → 9
      return this.fromHistory(name, depth) ?? NONEXISTENT;
    }

    // 8. an assigned name, or a valid lower-resolution prefix → itself
    const current = this.assignedOrPrefix(name, shape.locus, shape.fields, shape.suffix);
    if (current) return current;
    // 9. a name in some release (history) → the current name of that HLA ID
    // 10. otherwise nothing
    return this.fromHistory(name, depth) ?? NONEXISTENT;
  }

  private assignedOrPrefix(
    name: string,
    locus: string,
    fields: readonly string[],
    suffix: string,
  ): Resolution | null {
    if (this.index.current.has(name)) return found(name, 'allele');
    if (fields.length <= 3 && this.prefixIsValid(`${locus}*${fields.join(':')}`, suffix)) {
      return found(name, 'prefix');
    }
    return null;
  }

  private deletedOutcome(row: DeletedRow, depth: number): Resolution {
    const successor = this.successorOf(row, depth);
    const deletion = { name: row.name, reason: row.description };
    if (successor === null) return { ...DELETED_WITHOUT_SUCCESSOR, deletion };
    return { ...withFlag(successor, 'deprecated_name'), outcome: 'deleted', deletion };
  }

  /** §3.1: the successor named in the description, else the record's HLA ID, followed to a current name. */
  private successorOf(row: DeletedRow, depth: number): Resolution | null {
    if (this.successors.has(row)) return this.successors.get(row)!;
    const idName = this.index.currentById.get(row.id);
    const byId = idName !== undefined && idName !== row.name ? found(idName, 'allele') : null;
    let result: Resolution | null = null;
    const text = successorInDescription(row.name, row.description);
    if (text !== null) {
      const r = this.resolveName(text, depth + 1);
      if (r.name !== null) {
        // "becoming C*03:442Q" names a prefix today; the record's own HLA ID is the precise allele.
        const idUnderPrefix = r.kind === 'prefix' && byId && this.prefixCovers(r.name, byId.name!);
        result = idUnderPrefix ? withFlag(byId, ...r.flags) : r;
      }
    }
    result ??= byId;
    this.successors.set(row, result);
    return result;
  }

  private prefixCovers(prefix: string, name: string): boolean {
    const suffixless = prefix.slice(0, prefix.length - trailingLetter(prefix).length);
    return this.index.prefixMembers.get(suffixless)?.includes(name) ?? false;
  }

  private fromHistory(name: string, depth: number): Resolution | null {
    const facts = this.index.history?.get(name);
    if (!facts) return null;
    for (const id of facts.ids) {
      const currentName = this.index.currentById.get(id);
      if (currentName !== undefined) {
        return { ...found(currentName, 'allele', ['deprecated_name']), outcome: 'deleted' };
      }
    }
    for (const id of facts.ids) {
      const row = this.index.deletedById.get(id);
      if (row) return this.deletedOutcome(row, depth + 1);
    }
    return DELETED_WITHOUT_SUCCESSOR;
  }
}
