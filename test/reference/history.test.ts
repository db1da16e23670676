import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHistory, releaseCodeToVersion } from '../../src/reference/history.ts';
import { HISTORY_3180 } from './release-files.ts';

describe('releaseCodeToVersion', () => {
  it('reads 4-digit codes as d.dd.d and 3-digit codes as d.dd.0', () => {
    expect(releaseCodeToVersion('3650')).toBe('3.65.0');
    expect(releaseCodeToVersion('2252')).toBe('2.25.2');
    expect(releaseCodeToVersion('3131')).toBe('3.13.1');
    expect(releaseCodeToVersion('1050')).toBe('1.05.0');
    expect(releaseCodeToVersion('327')).toBe('3.27.0');
    // Releases with a zero minor are named 3.0.0 and 2.0.0, not 3.00.0.
    expect(releaseCodeToVersion('3000')).toBe('3.0.0');
    expect(releaseCodeToVersion('2000')).toBe('2.0.0');
    for (const bad of ['', '36', '36500', '3.65', 'NA', '36a0']) expect(releaseCodeToVersion(bad)).toBeNull();
  });

  it('keeps every digit, in order', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}$/).filter((code) => code.slice(1, 3) !== '00'), (code) => {
        expect(releaseCodeToVersion(code)?.replaceAll('.', '')).toBe(code);
      }),
    );
  });
});

describe('parseHistory on the genuine Allelelist_history.txt of release 3.18.0 (tab-separated, CRLF)', () => {
  const text = readFileSync(HISTORY_3180, 'utf8');
  const history = parseHistory(text);
  const byId = new Map(history.rows.map((r) => [r.id, r.names]));
  const at = (id: string, release: string) => byId.get(id)?.[history.releases.indexOf(release)];

  it('reads 63 releases, newest first, from 3.18.0 back to 1.05.0', () => {
    expect(history.version).toBeNull();
    expect(history.releases).toHaveLength(63);
    expect(history.releases[0]).toBe('3.18.0');
    expect(history.releases.at(-1)).toBe('1.05.0');
    expect(history.releases).toContain('2.25.2');
    expect(history.releases).toContain('3.13.1');
    expect(history.rows).toHaveLength(12_441);
    expect(history.rows.every((r) => r.names.length === 63)).toBe(true);
  });

  it('gives each HLA ID its name per release', () => {
    expect(at('HLA00001', '3.18.0')).toBe('A*01:01:01:01');
    expect(at('HLA00001', '2.28.0')).toBe('A*01010101');
    expect(at('HLA00001', '1.05.0')).toBe('A*0101');
    expect(history.rows[0].names.filter((n) => n === 'A*01011')).toHaveLength(9);
  });

  it('reads NA as null', () => {
    expect(at('HLA06029', '3.18.0')).toBeNull();
    expect(at('HLA06029', '3.10.0')).toBe('A*33:38');
    expect(history.rows.at(-1)).toMatchObject({ id: 'HLA07766' });
    expect(at('HLA07766', '3.11.0')).toBe('MICA*071');
  });

  it('reads the comma-separated layout of current releases the same way', () => {
    const commas = `# file: Allelelist_history.txt\n# version: IPD-IMGT/HLA 3.18.0\n${text.replaceAll('\t', ',').replaceAll('\r\n', '\n')}`;
    const parsed = parseHistory(commas);
    expect(parsed.version).toBe('3.18.0');
    expect(parsed.releases).toEqual(history.releases);
    // Compared as JSON: a deep toEqual over 780,000 cells is needlessly slow.
    expect(JSON.stringify(parsed.rows)).toBe(JSON.stringify(history.rows));
  });

  it('refuses a row with a missing column, naming its line', () => {
    const lines = text.split('\r\n');
    lines[2] = lines[2].slice(0, lines[2].lastIndexOf('\t'));
    expect(() => parseHistory(lines.join('\r\n'))).toThrow(/^Allelelist_history\.txt line 3: expected 64 fields/);
  });

  it('refuses an unreadable release code', () => {
    const edited = text.replace('\t2252\t', '\t2.25.2\t');
    expect(() => parseHistory(edited)).toThrow(/^Allelelist_history\.txt line 1: unreadable release code "2\.25\.2"/);
  });
});
