/**
 * Normalize (DOMAIN_RULES §5): one row per reported string, from the resolver and the reductions.
 */
import type { Resolution } from './engine-types.ts';
import type { Reductions } from './reduction.ts';
import { type Flag, type NormalizeRow, UNRESOLVABLE } from './types.ts';

export function normalizeRow(reported: string, r: Resolution, reductions: Reductions): NormalizeRow {
  if (r.name === null || r.kind === null) {
    return {
      reported,
      current_name: UNRESOLVABLE,
      allele_2field: UNRESOLVABLE,
      g_group: UNRESOLVABLE,
      flags: [...r.flags],
    };
  }
  const reduction = reductions.of(r.name, r.kind);
  let flags: Flag[] = [...r.flags];
  if (reduction.allNull && !flags.includes('null_allele')) {
    flags.push('null_allele');
    flags = flags.sort();
  }
  return {
    reported,
    current_name: r.name,
    allele_2field: reduction.allele2Field,
    g_group: reduction.gGroup,
    flags,
  };
}
