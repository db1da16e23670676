/**
 * Plain, parsed release tables: what `src/reference` hands to the engine.
 * One interface per release file; names are always full names with the locus (`A*01:01:01:01`).
 */

/** `Allelelist.txt`: one row per current allele. */
export interface AlleleRow {
  readonly id: string; // HLA ID, e.g. HLA00001
  readonly name: string; // e.g. A*01:01:01:01
}

/** `Deleted_alleles.txt` (both sections: deletions and suffix changes). */
export interface DeletedRow {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** `Nomenclature_2009.txt`: pre-2010 name → April 2010 name (`null` where the table says `None`). */
export interface ConversionRow {
  readonly legacy: string;
  readonly current: string | null;
}

/** `wmda/hla_nom_g.txt` and `wmda/hla_nom_p.txt`. */
export interface GroupRow {
  readonly locus: string; // without the star: `A`, `DRB1`
  readonly members: readonly string[]; // full names
  readonly group: string | null; // full group name (`A*01:01:01G`), or null when the allele is in no group
}

/** `wmda/rel_dna_ser.txt`: one row per allele; 6 fields before 3.64.0, 7 since. */
export interface DnaSerologyRow {
  readonly allele: string; // full name
  /**
   * Serology columns in file order, each a list of raw codes (`/`-separated in the file):
   * [unambiguous, possible, assumed, expert, ...further columns of newer releases].
   */
  readonly columns: readonly (readonly string[])[];
}

/** `wmda/rel_ser_ser.txt`. */
export interface SerologyRelationRow {
  readonly locus: string; // serology locus: A, B, Cw, DR, DQ, Dw
  readonly antigen: string; // e.g. 2, 62
  readonly splits: readonly string[];
  readonly associated: readonly string[]; // associated antigens / 4-digit codes
}

/** `Allelelist_history.txt`: one row per HLA ID, one column per release (newest first). */
export interface HistoryTable {
  readonly releases: readonly string[]; // release strings, newest first: ['3.65.0', ..., '1.05.0']
  readonly rows: readonly HistoryRow[];
}

export interface HistoryRow {
  readonly id: string;
  /** Name in each release of `HistoryTable.releases`, same order; null where the file says NA. */
  readonly names: readonly (string | null)[];
}

/** `Allele_status.txt`. */
export interface AlleleStatusRow {
  readonly allele: string;
  readonly confirmed: boolean;
}

export type OptionalReleaseFile = 'Allelelist_history.txt' | 'Allele_status.txt';

/** Everything the engine needs from one release. Immutable after loading. */
export interface ReleaseTables {
  /** Release version from the `# version:` header of Allelelist.txt, e.g. `3.65.0`. */
  readonly version: string;
  /** Git tag the files were taken from, e.g. `v3.65.0-alpha`. */
  readonly tag: string;
  readonly alleles: readonly AlleleRow[];
  readonly deleted: readonly DeletedRow[];
  readonly conversions: readonly ConversionRow[];
  readonly gGroups: readonly GroupRow[];
  readonly pGroups: readonly GroupRow[];
  readonly dnaSerology: readonly DnaSerologyRow[];
  readonly serologyRelations: readonly SerologyRelationRow[];
  readonly history: HistoryTable | null;
  readonly alleleStatus: readonly AlleleStatusRow[] | null;
  /** Optional files that could not be had; the facts they feed are unknown. */
  readonly missingOptional: readonly OptionalReleaseFile[];
}
