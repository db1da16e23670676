/** The bulk processor on the real 3.65.0 engine: normalize, donor search, pairs, bad rows, layouts. */
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors.ts';
import { planJob, processBulkJob } from '../../src/jobs/processor.ts';
import type { JobSpec } from '../../src/jobs/types.ts';
import { match } from '../../src/matching/index.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { loadTestEngine } from '../support/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine();
});

const NORMALIZE: JobSpec = { kind: 'normalize', tag: 'v3.65.0-alpha', columns: ['hla_a', 'hla_drb1'] };

async function run(spec: JobSpec, csv: string, recipient?: unknown) {
  const result = await processBulkJob(engine, spec, { csv: Buffer.from(csv), recipient: recipient as never });
  const [header, ...rows] = parse(result.csv, { relax_column_count: true }) as string[][];
  const records = rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
  return { result, header, rows, records };
}

function expect422(run: () => unknown, pattern: RegExp): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(422);
    expect((error as RequestError).detail).toMatch(pattern);
    return;
  }
  throw new Error('expected a 422');
}

describe('bulk normalize', () => {
  it('keeps every row and column and adds four columns per typing column, then error', async () => {
    const csv = [
      'sample,hla_a,hla_drb1,note',
      'S1,A*0201,DRB1*15:13,"first, quoted"',
      'S2,A*01:01:01:02N,DRB1*15:01,',
      'S3,C*03:12,,x',
      'S4,A*99:99,DRB1*1501,y',
    ].join('\n');
    const { header, records, result } = await run(NORMALIZE, csv);
    expect(header).toEqual([
      'sample', 'hla_a', 'hla_drb1', 'note',
      'hla_a_current_name', 'hla_a_allele_2field', 'hla_a_g_group', 'hla_a_flags',
      'hla_drb1_current_name', 'hla_drb1_allele_2field', 'hla_drb1_g_group', 'hla_drb1_flags',
      'error',
    ]);
    expect(result.rows).toBe(4);
    expect(result.rowErrors).toBe(0);
    expect(records.map((r) => [r.sample, r.note])).toEqual([['S1', 'first, quoted'], ['S2', ''], ['S3', 'x'], ['S4', 'y']]);
    // DOMAIN_RULES §2, §3 and §5 examples.
    expect(records[0]).toMatchObject({ hla_a_current_name: 'A*02:01', hla_a_flags: 'deprecated_name', hla_drb1_current_name: 'DRB1*15:13Q' });
    expect(records[1]).toMatchObject({ hla_a_allele_2field: 'A*01:01', hla_a_g_group: 'A*01:01:01G', hla_a_flags: 'null_allele' });
    expect(records[2]).toMatchObject({ hla_a_current_name: 'C*03:19', hla_drb1_current_name: '', hla_drb1_flags: '' });
    expect(records[3]).toMatchObject({ hla_a_current_name: 'UNRESOLVABLE', hla_a_flags: 'nonexistent_allele', error: '' });
    // Every cell equals the engine's own row.
    for (const record of records) {
      for (const column of ['hla_a', 'hla_drb1']) {
        if (record[column] === '') continue;
        const row = engine.normalizeOne(record[column]);
        expect(record[`${column}_current_name`]).toBe(row.current_name);
        expect(record[`${column}_allele_2field`]).toBe(row.allele_2field);
        expect(record[`${column}_g_group`]).toBe(row.g_group);
        expect(record[`${column}_flags`]).toBe(row.flags.join('|'));
      }
    }
  });

  it('reports bad rows in the error column, by row number, and goes on', async () => {
    const csv = ['id,hla_a,hla_drb1', 'S1,A*01:01,DRB1*15:01', 'S2,A*02:01', 'S3,"broken"x,DRB1*04:01', `S4,${'A'.repeat(150)},DRB1*04:01`, 'S5,A*03:01,DRB1*07:01,extra', 'S6,B*07:02,DRB1*01:01'].join('\r\n');
    const { records, result, rows } = await run(NORMALIZE, csv);
    expect(rows).toHaveLength(6);
    expect(result.rowErrors).toBe(4);
    expect(records.map((r) => r.error)).toEqual([
      '',
      'row 2: 2 fields where the header has 3',
      'row 3: malformed CSV record (text follows a closing quote)',
      "row 4: 'hla_a' is longer than 100 characters",
      'row 5: 4 fields where the header has 3',
      '',
    ]);
    expect(records[1]).toMatchObject({ id: 'S2', hla_a: 'A*02:01', hla_drb1: '', hla_a_current_name: '' });
    expect(records[3]).toMatchObject({ id: 'S4', hla_drb1_current_name: 'DRB1*04:01' });
    expect(records[4]).toMatchObject({ id: 'S5', hla_drb1: 'DRB1*07:01', hla_a_current_name: '' });
    expect(records[5]).toMatchObject({ id: 'S6', hla_a_current_name: 'B*07:02', error: '' });
    // Errors name the row and the column, never the cell's content.
    expect(records.map((r) => r.error).join(' ')).not.toMatch(/AAAA|broken/);
  });

  it('an unclosed quote on row 5 of 10: 10 rows out, row 5 in error, the other 9 as usual', async () => {
    const lines = ['sample,hla_a,hla_drb1,note'];
    for (let n = 1; n <= 10; n++) {
      if (n === 5) lines.push('S5,"A*01:01,DRB1*15:01,never closed');
      else if (n === 3) lines.push('S3,A*02:01,DRB1*04:01,"two\r\nlines"');
      else if (n === 7) lines.push('S7,A*02:01,DRB1*04:01,"say ""hi"", twice"');
      else lines.push(`S${n},A*0${n % 3 + 1}:01,DRB1*15:01,n${n}`);
    }
    const { records, result } = await run(NORMALIZE, lines.join('\r\n') + '\r\n');
    expect(result.rows).toBe(10);
    expect(result.rowErrors).toBe(1);
    expect(records).toHaveLength(10);
    expect(records.map((r) => r.sample)).toEqual(['S1', 'S2', 'S3', 'S4', '', 'S6', 'S7', 'S8', 'S9', 'S10']);
    expect(records[4]).toMatchObject({ hla_a: '', note: '', hla_a_current_name: '', error: 'row 5: malformed CSV record (a quoted field is not closed)' });
    expect(records[2].note).toBe('two\r\nlines');
    expect(records[6].note).toBe('say "hi", twice');
    for (const record of records.filter((r) => r.sample !== '')) {
      expect(record.error).toBe('');
      if (record.sample !== 'S3' && record.sample !== 'S7') expect(record.note).toBe(`n${record.sample.slice(1)}`);
      expect(record.hla_a_current_name).toBe(engine.normalizeOne(record.hla_a).current_name);
      expect(record.hla_drb1_g_group).toBe(engine.normalizeOne(record.hla_drb1).g_group);
    }
  });

  it('checks the layout: 422 naming the column', () => {
    const header = ['id', 'hla_a', 'hla_a_flags', 'dup', 'dup'];
    expect422(() => planJob({ ...NORMALIZE, columns: ['hla_b'] }, header, {}), /'hla_b' is not a column/);
    expect422(() => planJob({ ...NORMALIZE, columns: ['dup'] }, header, {}), /'dup' appears 2 times/);
    expect422(() => planJob({ ...NORMALIZE, columns: [] }, header, {}), /at least one typing column/);
    expect422(() => planJob({ ...NORMALIZE, columns: ['hla_a', 'hla_a'] }, header, {}), /named twice/);
    expect422(() => planJob({ ...NORMALIZE, columns: ['hla_a'] }, header, {}), /already has a column 'hla_a_flags'/);
    expect(planJob({ ...NORMALIZE, columns: [' id '] }, header, {}).kind).toBe('normalize');
  });
});

const RECIPIENT = {
  A: ['A*01:01', 'A*02:01'],
  B: ['B*07:02', 'B*08:01'],
  C: ['C*07:01', 'C*07:02'],
  DRB1: ['DRB1*15:01', 'DRB1*03:01'],
};

describe('bulk match: donor search', () => {
  const spec: JobSpec = { kind: 'match', tag: 'v3.65.0-alpha', mode: 'search', framework: '8/8' };
  const donors = [
    'donor_id,A_1,A_2,B_1,B_2,C_1,C_2,DRB1_1,DRB1_2,DQB1_1',
    'D1,A*01:01,A*03:01,B*07:02,B*08:01,C*07:01,C*07:02,DRB1*15:01,DRB1*03:01,DQB1*06:02', // 7/8
    'D2,A*0101,A*0201,B*07:02,B*08:01,Cw*0701,C*07:02,DRB1*15:01,DRB1*03:01,', // 8/8 (legacy spellings)
    'D3,A*02,A*01:01,B*07:02,B*08:01,C*07:01,C*07:02,DRB1*15:01,DRB1*03:01,', // A potential → 6/6
    'D4,"A*01:01"x,,,,,,,,', // malformed
    'D5,A*01:01,A*02:01,B*07:02,B*08:01,,,DRB1*15:01,DRB1*03:01,', // C missing → potential, 6/6
    'D6,X*01:01,X*02:01,,,,,,,', // nothing scoreable → UNRESOLVABLE
  ].join('\n');

  it('ranks donors best first, one row each, with verdicts, HvG/GvH and flags', async () => {
    const { header, records, result } = await run(spec, donors, RECIPIENT);
    expect(header).toEqual([
      'rank', 'input_row', 'donor_id', 'A_1', 'A_2', 'B_1', 'B_2', 'C_1', 'C_2', 'DRB1_1', 'DRB1_2', 'DQB1_1',
      'count', 'A_verdict', 'B_verdict', 'C_verdict', 'DRB1_verdict', 'hvg_mismatches', 'gvh_mismatches', 'flags', 'error',
    ]);
    expect(result.rows).toBe(6);
    expect(result.rowErrors).toBe(1);
    expect(records.map((r) => [r.rank, r.donor_id, r.count])).toEqual([
      ['1', 'D2', '8/8'],
      ['2', 'D3', '6/6'],
      ['3', 'D5', '6/6'],
      ['4', 'D1', '7/8'],
      ['5', 'D6', 'UNRESOLVABLE'],
      ['6', '', ''],
    ]);
    expect(records[5]).toMatchObject({ input_row: '4', error: 'row 4: malformed CSV record (text follows a closing quote)' });
    // Each scored row is exactly what POST /v1/match answers for that donor.
    for (const record of records.slice(0, 5)) {
      const donor: Record<string, string[]> = {};
      for (const locus of ['A', 'B', 'C', 'DRB1', 'DQB1']) {
        const names = [record[`${locus}_1`], record[`${locus}_2`]].filter((name) => name !== undefined && name !== '');
        if (names.length > 0) donor[locus] = names;
      }
      const expected = match(engine, { framework: '8/8', recipient: RECIPIENT, donor });
      expect(record.count).toBe(expected.count);
      expect(record.A_verdict).toBe(expected.verdicts.A);
      expect(record.C_verdict).toBe(expected.verdicts.C);
      expect(record.hvg_mismatches).toBe(String(expected.hvg_mismatches));
      expect(record.gvh_mismatches).toBe(String(expected.gvh_mismatches));
      expect(record.flags).toBe(expected.flags.join('|'));
    }
    expect(records.find((r) => r.donor_id === 'D1')).toMatchObject({ A_verdict: 'mismatch', hvg_mismatches: '1', gvh_mismatches: '1' });
  });

  it('checks recipient and layout at submit (422)', () => {
    const header = ['donor_id', 'A_1', 'A_2'];
    expect422(() => planJob(spec, header, {}), /recipient: required/);
    expect422(() => planJob(spec, header, { recipient: { A: 'A*01:01' } as never }), /recipient\.A/);
    expect422(() => planJob(spec, ['donor_id', 'typing'], { recipient: RECIPIENT }), /no typing columns/);
    expect422(() => planJob(spec, ['A_1', 'HLA-A_1'], { recipient: RECIPIENT }), /same typing position/);
    expect422(() => planJob(spec, ['A_1', 'rank'], { recipient: RECIPIENT }), /already has a column 'rank'/);
  });
});

describe('bulk match: pairs', () => {
  const spec: JobSpec = { kind: 'match', tag: 'v3.65.0-alpha', mode: 'pairs', framework: 'antigen' };

  it('scores each row in input order', async () => {
    const csv = [
      'pair,recipient_A_1,recipient_A_2,recipient_B_1,recipient_B_2,donor_A_1,donor_A_2,donor_B_1,donor_B_2',
      'P1,A*02:01,A*24:02,B*07:02,B*08:01,A*02:05,A*24:02,B*07:02,B*08:01',
      'P2,A*01:01,A*01:01,B*15:01,B*15:01,A*01:01,A*02:01,B*15:01,B*15:01',
      'P3,A*01:01',
    ].join('\n');
    const { records, result } = await run(spec, csv);
    expect(result.rowErrors).toBe(1);
    expect(records.map((r) => r.pair)).toEqual(['P1', 'P2', 'P3']);
    expect(records[2].error).toBe('row 3: 2 fields where the header has 9');
    for (const record of records.slice(0, 2)) {
      const side = (prefix: string) => ({
        A: [record[`${prefix}_A_1`], record[`${prefix}_A_2`]],
        B: [record[`${prefix}_B_1`], record[`${prefix}_B_2`]],
      });
      const expected = match(engine, { framework: 'antigen', recipient: side('recipient'), donor: side('donor') });
      expect([record.count, record.A_verdict, record.B_verdict, record.C_verdict, record.flags]).toEqual([
        expected.count,
        expected.verdicts.A,
        expected.verdicts.B,
        expected.verdicts.C,
        expected.flags.join('|'),
      ]);
    }
  });

  it('needs both sides', () => {
    expect422(() => planJob(spec, ['recipient_A_1', 'A_1'], {}), /pairs mode needs/);
  });
});
