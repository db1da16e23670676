import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd5List } from '../../src/reference/md5-list.ts';
import { MIRROR_3650, releaseText } from './release-files.ts';

describe('parseMd5List on the genuine checksum lists', () => {
  it('reads md5checksum.txt of 3.65.0', () => {
    const entries = parseMd5List(releaseText('3.65.0', 'md5checksum.txt'));
    expect(entries).toHaveLength(17);
    expect(entries.find((e) => e.file === 'Allelelist.txt')?.md5).toBe('b9b22a0394436db7362ba6aa85a05855');
    expect(entries.map((e) => e.file)).toContain('Allelelist_history.txt');
  });

  it('reads wmda/md5checksum.txt, whose names are relative to wmda/', () => {
    const entries = parseMd5List(releaseText('3.65.0', 'wmda/md5checksum.txt'), 'wmda/md5checksum.txt');
    expect(entries.map((e) => e.file)).toEqual(['hla_nom_g.txt', 'hla_nom_p.txt', 'hla_nom.txt', 'README.md', 'rel_dna_ser.txt', 'rel_ser_ser.txt']);
    for (const { file, md5 } of entries.filter((e) => /^(hla_nom_[gp]|rel_\w+)\.txt$/.test(e.file))) {
      const actual = createHash('md5').update(readFileSync(path.join(MIRROR_3650, 'wmda', file))).digest('hex');
      expect(actual, file).toBe(md5);
    }
  });

  it('refuses a malformed line, naming it', () => {
    const edited = releaseText('3.65.0', 'md5checksum.txt').replace('MD5 (Allelelist.txt) = ', 'MD5 Allelelist.txt = ');
    expect(() => parseMd5List(edited)).toThrow(/^md5checksum\.txt line 4: expected "MD5 \(file\) = hex"/);
  });
});
