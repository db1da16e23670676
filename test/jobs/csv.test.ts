/**
 * The CSV wiring of bulk jobs: csv-parse in slices with per-row recovery (csv-input.ts) and
 * csv-stringify for the result (csv-output.ts). Most cases run with tiny slices too, so that
 * slice ends fall inside quoted fields, CRLFs and bad records.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors.ts';
import { CsvInput, estimateRows, type CsvRow } from '../../src/jobs/csv-input.ts';
import { CsvSink, recordText, recordTexts } from '../../src/jobs/csv-output.ts';

const SLICES = [1, 7, 64, 64 * 1024];

function readAll(csv: string | Buffer, sliceBytes?: number): { header: readonly string[]; rows: CsvRow[]; batches: number } {
  const input = CsvInput.of(Buffer.isBuffer(csv) ? csv : Buffer.from(csv), sliceBytes);
  const rows: CsvRow[] = [];
  let batches = 0;
  for (let batch = input.nextBatch(); batch !== null; batch = input.nextBatch()) {
    rows.push(...batch);
    batches++;
  }
  return { header: input.header, rows, batches };
}

/** Each row as its fields, or its malformed reason. */
function outcome(rows: readonly CsvRow[]): (readonly string[] | string)[] {
  return rows.map((row) => row.malformed ?? row.fields);
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

// Field text: printable characters plus the ones CSV has to quote.
const fieldText = fc.string({ unit: fc.constantFrom('a', 'B', '*', ':', '0', '9', ' ', ',', '"', '\n', '\r', '\r\n', 'é', '|', ';') });

describe('CsvInput (csv-parse)', () => {
  it('reads back what csv-stringify writes, LF or CRLF, whatever the slice size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) =>
          fc.tuple(
            fc.array(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/), { minLength: width, maxLength: width }),
            fc.array(fc.array(fieldText, { minLength: width, maxLength: width }), { maxLength: 20 }),
            fc.boolean(),
            fc.constantFrom(...SLICES),
          ),
        ),
        ([header, rows, crlf, slice]) => {
          // A record whose only field is empty is written as a blank line, which is not a row.
          const records = rows.filter((row) => !(row.length === 1 && row[0] === ''));
          // Line breaks inside fields are quoted: csv-stringify leaves them bare once record_delimiter
          // is set, and a bare LF in a CRLF file ends the row.
          const text = stringify([header, ...records], { record_delimiter: crlf ? 'windows' : 'unix', quoted_match: /[\r\n]/ });
          const read = readAll(text, slice);
          expect(read.header).toEqual(header);
          expect(outcome(read.rows)).toEqual(records);
          expect(read.rows.map((row) => row.number)).toEqual(records.map((_, i) => i + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads quotes, CRLF, mixed line ends, multi-line fields and wrong widths as they are', () => {
    const csv = 'id,typing,note\r\nS1,A*01:01,"a, b"\r\n\r\nS2,"B*07:02","say ""hi"""\nS3,C*07:01,"two\r\nlines"\nS4,x\nS5,a,b,c\n';
    for (const slice of SLICES) {
      const { header, rows } = readAll(csv, slice);
      expect(header).toEqual(['id', 'typing', 'note']);
      expect(outcome(rows)).toEqual([
        ['S1', 'A*01:01', 'a, b'],
        ['S2', 'B*07:02', 'say "hi"'],
        ['S3', 'C*07:01', 'two\r\nlines'],
        ['S4', 'x'], // the width is the transforms' business
        ['S5', 'a', 'b', 'c'],
      ]);
      expect(rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('drops a UTF-8 BOM and skips blank lines, before the header too', () => {
    const { header, rows } = readAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n\r\na,b\n\n1,2\n\n')]));
    expect(header).toEqual(['a', 'b']);
    expect(outcome(rows)).toEqual([['1', '2']]);
  });

  it('an unclosed quote on row 5 of 10 costs row 5 only', () => {
    const lines = ['id,typing,lab'];
    for (let n = 1; n <= 10; n++) lines.push(n === 5 ? `S5,"A*01:01,L5` : `S${n},A*0${n % 9}:01,L${n}`);
    const expected = lines.slice(1).map((line, i) => (i === 4 ? 'a quoted field is not closed' : line.split(',')));
    for (const ending of ['\n', '\r\n']) {
      for (const slice of SLICES) {
        const { rows } = readAll(lines.join(ending) + ending, slice);
        expect(outcome(rows)).toEqual(expected);
        expect(rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      }
    }
  });

  it('marks each kind of malformed record and reads the rows after it normally', () => {
    const csv = 'a,b,c\n1,"x,y",3\n2,"bad"q,3\n3,ok\n4,"multi\nline",5\n5,a"b,6\n6,"open,7\n7,x,y\n8,"q, r",z\n9,"last\n';
    for (const slice of SLICES) {
      const { rows } = readAll(csv, slice);
      expect(outcome(rows)).toEqual([
        ['1', 'x,y', '3'],
        'text follows a closing quote',
        ['3', 'ok'],
        ['4', 'multi\nline', '5'],
        'a quote inside an unquoted field', // RFC 4180: an unquoted field holds no quote
        'a quoted field is not closed', // on its line; csv-parse notices at row 8's first quote
        ['7', 'x', 'y'],
        ['8', 'q, r', 'z'],
        'a quoted field is not closed',
      ]);
      expect(rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('loses no row after a bad one, wherever it is and however the input is sliced', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[A-Z][0-9]{0,4}$/), fc.stringMatching(/^[A-Za-z*:0-9 ]{0,12}$/)), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.constantFrom('"', 'x"y', '"x"y'),
        fc.constantFrom(...SLICES),
        (rows, at, bad, slice) => {
          const k = at % rows.length;
          const lines = rows.map(([id, typing], i) => `${id},${i === k ? bad : typing}`);
          const { rows: read } = readAll(['id,typing', ...lines].join('\n') + '\n', slice);
          expect(read).toHaveLength(rows.length);
          read.forEach((row, i) => {
            expect(row.number).toBe(i + 1);
            if (i === k) expect(row.malformed).not.toBeNull();
            else expect(row.fields).toEqual(rows[i]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is needed: csv-parse alone would lose or merge the rows after an unclosed quote', () => {
    // Documents why csv-input.ts restarts instead of using these options; revisit if this fails.
    const csv = 'id,v\n1,x\n2,"open\n3,x\n4,"q"\n5,x\n';
    const options = { relax_column_count: true } as const;
    expect(parse(csv, { ...options, skip_records_with_error: true })).toEqual([['id', 'v'], ['1', 'x'], ['5', 'x']]);
    expect(parse(csv, { ...options, relax_quotes: true })).toHaveLength(4);
    expect(outcome(readAll(csv).rows)).toEqual([['1', 'x'], 'a quoted field is not closed', ['3', 'x'], ['4', 'q'], ['5', 'x']]);
  });

  it('hands out one slice of rows per batch', () => {
    const csv = 'id,typing\n' + 'S1,A*01:01\n'.repeat(30_000);
    const { rows, batches } = readAll(csv);
    expect(rows).toHaveLength(30_000);
    expect(batches).toBeGreaterThan(3);
  });

  it('refuses what is not a UTF-8 CSV with a header (422), naming no content', () => {
    expect422(() => CsvInput.of(Buffer.alloc(0)), /empty/);
    expect422(() => CsvInput.of(Buffer.from('\n\n\n')), /no header row/);
    expect422(() => CsvInput.of(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])), /not UTF-8 text/); // a zip (xlsx)
    expect422(() => CsvInput.of(Buffer.from([0x61, 0x2c, 0xe9, 0x0a])), /not UTF-8 text/); // Latin-1
    expect422(() => CsvInput.of(Buffer.from('"secret,b\n1,2\n')), /^CSV: the header row is not valid CSV \(a quoted field is not closed\)$/);
    expect422(() => CsvInput.of(Buffer.from('a,"secret"x\n1,2\n')), /^CSV: the header row is not valid CSV \(text follows a closing quote\)$/);
  });

  it('reads the header alone from the start of a large file', () => {
    const big = Buffer.from('id,"typing\nof donor"\n' + 'S,A*01:01\n'.repeat(200_000));
    expect(CsvInput.headerOf(big)).toEqual(['id', 'typing\nof donor']);
    expect422(() => CsvInput.headerOf(Buffer.from('x'.repeat(2 * 1024 * 1024) + '\n1\n')), /longer than/);
  });

  it('estimates data rows from line ends', () => {
    expect(estimateRows(Buffer.from('a,b\n1,2\n3,4\n'))).toBe(2);
    expect(estimateRows(Buffer.from('a,b\r\n1,2\r\n\r\n3,4'))).toBe(2);
    expect(estimateRows(Buffer.from('a,b'))).toBe(0);
  });
});

describe('CSV output (csv-stringify)', () => {
  it('gives each record the text csv-stringify writes for it by default', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fieldText, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 10 }), (rows) => {
        const texts = recordTexts(rows);
        expect(texts).toHaveLength(rows.length);
        expect(texts.map((text) => text + '\n').join('')).toBe(stringify(rows));
        expect(recordText(rows[0])).toBe(texts[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('quotes only what needs it', () => {
    expect(recordText(['A*01:01', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '', 'deprecated_name|null_allele'])).toBe(
      'A*01:01,"a,b","say ""hi""","two\nlines","cr\r",,deprecated_name|null_allele',
    );
  });

  it('joins chunks of a large output', () => {
    const sink = new CsvSink();
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 3000; i++) sink.writeLine(line);
    const out = sink.finish();
    expect(out.length).toBe(3000 * 1001);
    expect(out.subarray(0, 1001).toString()).toBe(line + '\n');
  });
});
