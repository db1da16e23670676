import type { OptionalReleaseFile } from '../reference/tables.ts';
import type {
  Antigen,
  Flag,
  LookupResult,
  NormalizeResponse,
  NormalizeRow,
  TokenVerdict,
  VerifyResponse,
} from './types.ts';

/** What a resolved name is. */
export type ResolvedKind = 'allele' | 'prefix' | 'group';

/**
 * How a name was decided, which is what verify reports as the token status:
 * `deleted` when the chain passed through a deletion record (rule 6) or history (rule 9).
 */
export type ResolutionOutcome =
  | 'assigned'
  | 'prefix'
  | 'group'
  | 'deleted'
  | 'fabricated_group'
  | 'mac_code'
  | 'out_of_scope'
  | 'nonexistent';

/** What a reported name resolves to (DOMAIN_RULES §3). */
export interface Resolution {
  /** Current allele, prefix or group name; null when nothing resolves. */
  readonly name: string | null;
  /** What `name` is; null when `name` is null. */
  readonly kind: ResolvedKind | null;
  readonly outcome: ResolutionOutcome;
  /** Resolver flags, sorted. */
  readonly flags: readonly Flag[];
  /** The deletion record the chain passed through, if any (name and description). */
  readonly deletion?: { readonly name: string; readonly reason: string };
}

/** One loaded release, ready to answer. Pure: no I/O, immutable after construction. */
export interface Engine {
  /** Release version, e.g. `3.65.0`. */
  readonly release: string;
  readonly tag: string;
  readonly attribution: string;
  /** Number of current alleles in Allelelist.txt. */
  readonly alleleCount: number;
  readonly missingOptional: readonly OptionalReleaseFile[];

  resolve(reported: string): Resolution;
  verify(text: string): VerifyResponse;
  normalize(typings: readonly string[]): NormalizeResponse;
  normalizeOne(reported: string): NormalizeRow;
  lookup(name: string): LookupResult;
  /** The verify verdict of one token (as a row of `verify`, without `occurrences`). */
  classify(token: string): Omit<TokenVerdict, 'occurrences'>;
  antigen(reported: string): Antigen;
  /**
   * Every name this release knows, sorted: current names, their prefixes (1–3 fields), deleted
   * names, G and P group names, and the legacy spellings of the 2009 conversion table.
   */
  knownNames(): readonly string[];
  /** True when the resolved name has one field only and is not itself an assigned allele. */
  isFirstFieldOnly(resolution: Resolution): boolean;
}
