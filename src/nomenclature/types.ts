/** Response shapes of the nomenclature engine: exactly the JSON bodies the API and the CLI return. */

export type Flag =
  | 'deprecated_name'
  | 'null_allele'
  | 'nonexistent_allele'
  | 'mac_code'
  | 'xx_code'
  | 'lg_notation'
  | 'g_group_name'
  | 'p_group_name'
  | 'out_of_scope';

export const TOKEN_STATUSES = [
  'valid',
  'group',
  'deleted',
  'fabricated_group',
  'hallucinated',
  'mac_code',
  'out_of_scope',
] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

export interface TokenVerdict {
  token: string;
  status: TokenStatus;
  note: string;
  occurrences: number;
  successor?: string;
  current_2field?: string;
  g_group?: string;
  flags?: Flag[];
}

export interface VerifyResponse {
  release: string;
  clean: boolean;
  counts: Record<TokenStatus, number>;
  tokens: TokenVerdict[];
  attribution: string;
}

export const UNRESOLVABLE = 'UNRESOLVABLE';

export interface NormalizeRow {
  reported: string;
  current_name: string;
  allele_2field: string;
  g_group: string;
  flags: Flag[];
}

export interface NormalizeResponse {
  release: string;
  rows: NormalizeRow[];
  attribution: string;
}

/** Serology of an assigned allele: the non-empty rel_dna_ser columns, as lists of raw codes. */
export type SerologyFacts = Partial<Record<string, string[]>>;

interface LookupBase {
  release: string;
  name: string;
  /** Present when the input was rewritten (Cw, XX, lg, legacy, deletion chain). */
  resolves_to?: string;
  flags?: Flag[];
}

export interface AssignedFacts extends LookupBase {
  status: 'assigned';
  confirmed: boolean | null;
  g_group: string;
  p_group: string | null;
  first_release: string | null;
  serology: SerologyFacts;
  null_allele: boolean;
}

export interface PrefixFacts extends LookupBase {
  status: 'valid_prefix';
  members_count: number;
  members_sample: string[];
}

export interface GroupFacts extends LookupBase {
  status: 'group';
  group_type: 'G' | 'P';
  members_count: number;
  members_sample: string[];
}

export interface DeletedFacts extends LookupBase {
  status: 'deleted';
  successor: string | null;
  reason: string | null;
}

export interface MacFacts extends LookupBase {
  status: 'mac_code';
  note: string;
}

export type AlleleFacts = AssignedFacts | PrefixFacts | GroupFacts | DeletedFacts | MacFacts;

export type LookupResult =
  | { found: true; facts: AlleleFacts }
  | { found: false; detail: string };

/** WMDA antigen of one typing (DOMAIN_RULES §7). */
export type Antigen =
  | { kind: 'antigen'; locus: string; antigen: string } // e.g. { locus: 'B', antigen: '62' }
  | { kind: 'null' }
  | { kind: 'uncertain' }
  | { kind: 'unresolvable' };
