/**
 * A tiny stand-in for a loaded release: verdicts from a table, so the diff's bookkeeping can be
 * tested on hand-made cases. Everything not in the table is hallucinated, as in a real release.
 */
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import type { Flag, TokenStatus } from '../../src/nomenclature/types.ts';

export interface StubVerdict {
  status: TokenStatus;
  successor?: string;
  current_name: string;
  allele_2field?: string;
  g_group?: string;
  flags?: Flag[];
}

const UNKNOWN: StubVerdict = {
  status: 'hallucinated',
  current_name: 'UNRESOLVABLE',
  allele_2field: 'UNRESOLVABLE',
  g_group: 'UNRESOLVABLE',
  flags: ['nonexistent_allele'],
};

export function stubEngine(release: string, table: Record<string, StubVerdict>): Engine {
  const verdictOf = (name: string): StubVerdict => table[name.trim()] ?? UNKNOWN;
  const engine: Partial<Engine> = {
    release,
    tag: `v${release}-alpha`,
    knownNames: () => Object.keys(table).sort(),
    classify: (token) => {
      const verdict = verdictOf(token);
      return {
        token,
        status: verdict.status,
        note: 'stub',
        ...(verdict.successor === undefined ? {} : { successor: verdict.successor }),
      };
    },
    normalizeOne: (reported) => {
      const verdict = verdictOf(reported);
      return {
        reported,
        current_name: verdict.current_name,
        allele_2field: verdict.allele_2field ?? verdict.current_name,
        g_group: verdict.g_group ?? 'NONE',
        flags: verdict.flags ?? [],
      };
    },
  };
  return engine as Engine;
}
