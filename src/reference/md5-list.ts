/**
 * `md5checksum.txt` and `wmda/md5checksum.txt`: `MD5 (file) = hex`, BSD `md5` style. Names are
 * relative to the list's own directory; the loader prefixes `wmda/` for the wmda list.
 */
import { ReleaseFileError } from './errors.ts';
import { isBlank, isComment, quote, splitLines } from './text-lines.ts';

export interface Md5Entry {
  readonly file: string;
  /** Lower-case hex. */
  readonly md5: string;
}

const ENTRY = /^MD5 ?\((.+)\) ?= ?([0-9a-fA-F]{32})$/;

export function parseMd5List(text: string, fileName = 'md5checksum.txt'): Md5Entry[] {
  const lines = splitLines(text);
  const entries: Md5Entry[] = [];
  const seen = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    const m = ENTRY.exec(line.trim());
    if (!m) throw new ReleaseFileError(fileName, i + 1, `expected "MD5 (file) = hex", found ${quote(line)}`);
    const file = m[1];
    const md5 = m[2].toLowerCase();
    const earlier = seen.get(file);
    if (earlier !== undefined) {
      if (earlier !== md5) throw new ReleaseFileError(fileName, i + 1, `${file} listed twice with different sums`);
      continue;
    }
    seen.set(file, md5);
    entries.push({ file, md5 });
  }
  if (entries.length === 0) throw new ReleaseFileError(fileName, null, 'no checksum entries');
  return entries;
}
