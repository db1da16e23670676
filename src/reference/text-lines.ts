/**
 * Line handling shared by the release-file parsers. Release files are plain ASCII, start with `#`
 * comment lines (some carry `# version: IPD-IMGT/HLA 3.65.0`), and are LF-terminated, except old
 * releases that used CRLF and files that end without a final newline.
 */
import { ReleaseFileError } from './errors.ts';

/** Lines without terminators (LF or CRLF) and without a byte-order mark. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  if (lines.length > 0 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
  return lines;
}

export function isComment(line: string): boolean {
  return line.charCodeAt(0) === 35; // '#'
}

export function isBlank(line: string): boolean {
  return line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === '');
}

const VERSION_LINE = /^#\s*version:\s*(.*?)\s*$/;
const RELEASE_VERSION = /^IPD-IMGT\/HLA\s+(\d+\.\d+\.\d+)$/;

export interface Preamble {
  /** Release from the `# version:` comment, or null when the file has none. */
  readonly version: string | null;
  /** Index (0-based) of the first line that is neither a comment nor blank; `lines.length` if none. */
  readonly next: number;
}

/** Skips the leading comment block and reads its `# version:` line, if any. */
export function readPreamble(lines: readonly string[], file: string): Preamble {
  let version: string | null = null;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    if (!isComment(line)) break;
    const m = VERSION_LINE.exec(line);
    if (m) {
      const release = RELEASE_VERSION.exec(m[1]);
      if (!release) throw new ReleaseFileError(file, i + 1, `unreadable version header ${quote(line)}`);
      version = release[1];
    }
  }
  return { version, next: i };
}

/** Throws unless `lines[index]` is exactly `expected`. */
export function expectHeader(lines: readonly string[], index: number, expected: string, file: string): void {
  if (index >= lines.length) throw new ReleaseFileError(file, null, `no header line (expected ${quote(expected)})`);
  const line = lines[index];
  if (line.trim() !== expected) {
    throw new ReleaseFileError(file, index + 1, `expected header ${quote(expected)}, found ${quote(line)}`);
  }
}

/** A line quoted for an error message, cut short when long. */
export function quote(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}

/** A shared empty list: most serology columns are empty, and one frozen array serves them all. */
export const NO_CODES: readonly string[] = Object.freeze([]);

/**
 * Reads `/`-separated lists (`a/b/c` → `['a','b','c']`, empty field → the shared empty list).
 * Equal fields share one frozen list: rel_dna_ser repeats a few hundred distinct values 46,000
 * times, and sharing keeps both the parse and the tables small. An empty item is an error.
 */
export function slashListReader(file: string): (field: string, lineIndex: number, column: string) => readonly string[] {
  const seen = new Map<string, readonly string[]>();
  return (field, lineIndex, column) => {
    if (field === '') return NO_CODES;
    let list = seen.get(field);
    if (list === undefined) {
      const items = field.split('/');
      for (const item of items) {
        if (item === '') throw new ReleaseFileError(file, lineIndex + 1, `empty item in the ${column} list ${quote(field)}`);
      }
      list = Object.freeze(items);
      seen.set(field, list);
    }
    return list;
  };
}
