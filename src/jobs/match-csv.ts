/**
 * Bulk match (docs/bulk-jobs.md "Match CSV"), two modes over one column layout: a typing is
 * spread over columns `<LOCUS>_<n>` (n = 1..4; `A_1`, `A_2`, `DRB1_1` …; `HLA-A_1` and `Cw_1`
 * are accepted spellings), one allele name per cell, empty cells ignored, a locus whose cells are
 * all empty counts as not typed (→ `potential`).
 *
 * - search: one recipient (JSON) against a donors CSV, one donor per row; the result is ranked
 *   best first and starts with `rank` and `input_row`.
 * - pairs: each row carries `recipient_<LOCUS>_<n>` and `donor_<LOCUS>_<n>`; rows keep their order.
 *
 * Every input column is kept; the result adds `count`, `<LOCUS>_verdict` per framework locus (in
 * framework order), `hvg_mismatches`, `gvh_mismatches`, `flags` (joined by `|`) and `error`.
 */
import { RequestError, validationError } from '../errors.ts';
import { FRAMEWORK_LOCI, MATCH_LOCI, MAX_NAME_LENGTH, match, validateMatchRequest, type MatchResponse } from '../matching/index.ts';
import type { Framework, Typing } from '../matching/types.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import { UNRESOLVABLE } from '../nomenclature/types.ts';
import type { CsvRow } from './csv-input.ts';
import { recordText, recordTexts, type CsvSink } from './csv-output.ts';
import { assertNoClash, columnLabel, keptCells, shapeProblem, type CsvTransform } from './layout.ts';
import { FLAG_SEPARATOR } from './normalize-csv.ts';
import type { MatchMode } from './types.ts';

/** One typing cell: where it is in the row and which locus it feeds. */
interface TypingCell {
  readonly position: number;
  readonly locus: string;
}

/**
 * The locus a column prefix names: a locus some framework scores (`MATCH_LOCI`), optionally
 * with `HLA-`, and the pre-2010 `Cw` for C — the key spellings `POST /v1/match` accepts.
 */
function locusOfColumn(prefix: string): string | undefined {
  const bare = prefix.startsWith('HLA-') ? prefix.slice(4) : prefix;
  if (bare === 'Cw') return 'C';
  return (MATCH_LOCI as readonly string[]).includes(bare) ? bare : undefined;
}

export interface MatchPlan {
  readonly mode: MatchMode;
  readonly framework: Framework;
  readonly header: readonly string[];
  /** Search: the donor cells; pairs: the donor side. */
  readonly donorCells: readonly TypingCell[];
  /** Pairs only: the recipient side. */
  readonly recipientCells: readonly TypingCell[];
  /** Search only: the recipient typing (checked by the matcher's own validation). */
  readonly recipient: Typing | null;
  readonly outputHeader: readonly string[];
}

const TYPING_COLUMN = /^(.+)_([1-4])$/;
const PAIR_COLUMN = /^(recipient|donor)_(.+_[1-4])$/;

/**
 * Checks header and recipient at submit; the worker builds the same plan again from the input.
 * `recipient` (search mode) is any JSON value: it gets the matcher's own 422 wording.
 */
export function planMatch(header: readonly string[], mode: MatchMode, framework: Framework, recipient?: unknown): MatchPlan {
  const donorCells: TypingCell[] = [];
  const recipientCells: TypingCell[] = [];
  const seen = new Map<string, string>();
  header.forEach((raw, position) => {
    const name = raw.trim();
    let side: 'recipient' | 'donor' = 'donor';
    let typingName = name;
    if (mode === 'pairs') {
      const pair = PAIR_COLUMN.exec(name);
      if (pair === null) return;
      side = pair[1] as 'recipient' | 'donor';
      typingName = pair[2];
    }
    const m = TYPING_COLUMN.exec(typingName);
    const locus = m === null ? undefined : locusOfColumn(m[1]);
    if (m === null || locus === undefined) return; // a locus no framework scores: kept, not read
    const key = `${side}:${locus}:${m[2]}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw validationError(`CSV: columns ${columnLabel(other)} and ${columnLabel(name)} are the same typing position`);
    }
    seen.set(key, name);
    (side === 'donor' ? donorCells : recipientCells).push({ position, locus });
  });

  let validated: Typing | null = null;
  if (mode === 'search') {
    if (donorCells.length === 0) {
      throw validationError('donors: the CSV has no typing columns; name them <LOCUS>_<n>, e.g. A_1, A_2, B_1, B_2, C_1, C_2, DRB1_1, DRB1_2');
    }
    validateMatchRequest({ framework, recipient, donor: {} }); // 422 with the matcher's wording
    validated = recipient as Typing;
  } else if (donorCells.length === 0 || recipientCells.length === 0) {
    throw validationError(
      'CSV: pairs mode needs recipient_<LOCUS>_<n> and donor_<LOCUS>_<n> columns, e.g. recipient_A_1, donor_A_1',
    );
  }

  const added = [
    'count',
    ...FRAMEWORK_LOCI[framework].map((scored) => `${scored.locus}_verdict`),
    'hvg_mismatches',
    'gvh_mismatches',
    'flags',
    'error',
  ];
  const lead = mode === 'search' ? ['rank', 'input_row'] : [];
  assertNoClash(header, [...lead, ...added]);
  return {
    mode,
    framework,
    header,
    donorCells,
    recipientCells,
    recipient: validated,
    outputHeader: [...lead, ...header, ...added],
  };
}

/** A scored row of a donor search, kept until every donor is scored, then ranked. */
interface Ranked {
  readonly number: number;
  /** 0 = scored, 1 = count UNRESOLVABLE, 2 = row error. */
  readonly tier: number;
  readonly mismatches: number;
  readonly potential: number;
  readonly directional: number;
  /** The result line without `rank` and `input_row`. */
  line: string;
}

export class MatchTransform implements CsvTransform {
  rowErrors = 0;
  private readonly ranked: Ranked[] = [];
  private readonly width: number;
  /** The added cells of a row in error, before its `error` cell. */
  private readonly blankResult: readonly string[];

  constructor(
    private readonly engine: Engine,
    private readonly plan: MatchPlan,
  ) {
    this.width = plan.header.length;
    this.blankResult = new Array<string>(FRAMEWORK_LOCI[plan.framework].length + 4).fill('');
  }

  start(sink: CsvSink): void {
    sink.writeLine(recordText(this.plan.outputHeader));
  }

  rows(batch: readonly CsvRow[], sink: CsvSink): void {
    const inputs = recordTexts(batch.map((row) => keptCells(row, this.width)));
    const added: string[][] = [];
    const entries: Ranked[] = [];
    for (const row of batch) {
      const outcome = this.score(row);
      if ('problem' in outcome) {
        this.rowErrors++;
        added.push([...this.blankResult, `row ${row.number}: ${outcome.problem}`]);
        entries.push({ number: row.number, tier: 2, mismatches: 0, potential: 0, directional: 0, line: '' });
        continue;
      }
      const r = outcome.result;
      const cells = [r.count];
      let potential = 0;
      for (const scored of FRAMEWORK_LOCI[this.plan.framework]) {
        const verdict = r.verdicts[scored.locus];
        if (verdict === 'potential') potential++;
        cells.push(verdict);
      }
      cells.push(String(r.hvg_mismatches), String(r.gvh_mismatches), r.flags.join(FLAG_SEPARATOR), '');
      added.push(cells);
      let tier = 1;
      let mismatches = 0;
      if (r.count !== UNRESOLVABLE) {
        const slash = r.count.indexOf('/');
        tier = 0;
        mismatches = Number(r.count.slice(slash + 1)) - Number(r.count.slice(0, slash));
      }
      entries.push({ number: row.number, tier, mismatches, potential, directional: r.hvg_mismatches + r.gvh_mismatches, line: '' });
    }
    const results = recordTexts(added);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      entry.line = inputs[i] + ',' + results[i];
      if (this.plan.mode === 'pairs') sink.writeLine(entry.line);
      else this.ranked.push(entry);
    }
  }

  /**
   * Search mode ranks, best first: scored rows before UNRESOLVABLE counts before row errors; then
   * fewer mismatched chromosomes, fewer `potential` loci, fewer HvG + GvH mismatches; ties keep
   * input order. `rank` and `input_row` are integers: their text needs no quoting.
   */
  end(sink: CsvSink): void {
    if (this.plan.mode !== 'search') return;
    this.ranked.sort(
      (a, b) =>
        a.tier - b.tier ||
        a.mismatches - b.mismatches ||
        a.potential - b.potential ||
        a.directional - b.directional ||
        a.number - b.number,
    );
    for (let i = 0; i < this.ranked.length; i++) {
      const entry = this.ranked[i];
      sink.writeLine(`${i + 1},${entry.number},${entry.line}`);
    }
    this.ranked.length = 0;
  }

  private score(row: CsvRow): { result: MatchResponse } | { problem: string } {
    const problem = shapeProblem(row, this.width);
    if (problem !== null) return { problem };
    const { plan } = this;
    try {
      const donor = this.typingOf(row.fields, plan.donorCells, 'donor');
      const recipient = plan.recipient ?? this.typingOf(row.fields, plan.recipientCells, 'recipient');
      return { result: match(this.engine, { framework: plan.framework, recipient, donor }) };
    } catch (error) {
      if (error instanceof RequestError) return { problem: error.detail };
      return { problem: 'the typing could not be matched' };
    }
  }

  /** The row's typing of one side, as `POST /v1/match` takes it; a locus with no name is left out. */
  private typingOf(fields: readonly string[], cells: readonly TypingCell[], side: string): Typing {
    const typing: Record<string, string[]> = {};
    for (const cell of cells) {
      const value = fields[cell.position];
      if (value.trim() === '') continue;
      if (value.length > MAX_NAME_LENGTH) {
        throw validationError(`${side} ${cell.locus}: a name is longer than ${MAX_NAME_LENGTH} characters`);
      }
      (typing[cell.locus] ??= []).push(value);
    }
    return typing;
  }
}
