/**
 * Failures of reading a release. Both stop the start-up: the service must never answer from a
 * release it could not verify and parse completely.
 */

/** A release file whose content does not have the documented layout. */
export class ReleaseFileError extends Error {
  constructor(
    /** Release path of the file, e.g. `wmda/hla_nom_g.txt`. */
    readonly file: string,
    /** 1-based line number, or null when the problem is the file as a whole. */
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(line === null ? `${file}: ${reason}` : `${file} line ${line}: ${reason}`);
    this.name = 'ReleaseFileError';
  }
}

export type ReleaseLoadErrorCode =
  | 'config' // the options cannot name a release (bad tag, unusable directory)
  | 'missing_file' // a required file is in no source
  | 'fetch_failed' // the download failed after all retries
  | 'checksum_mismatch' // a file's MD5 differs from the release's own list
  | 'unverifiable' // a file has no entry in the release's MD5 list
  | 'version_mismatch'; // Allelelist.txt is of another release than the tag

/** The release as a whole could not be had: a file is missing, unverifiable or of the wrong release. */
export class ReleaseLoadError extends Error {
  constructor(
    readonly code: ReleaseLoadErrorCode,
    message: string,
    /** Release path of the file concerned, when there is one. */
    readonly file: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReleaseLoadError';
  }
}
