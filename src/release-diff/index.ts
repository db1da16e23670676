/** Release diff: the verdict changes a pin move from one release to another would bring. */
export { diffReleases } from './diff.ts';
export { diffToCsv, listedChanges, CSV_COLUMNS } from './csv.ts';
export { describeLoaded, findLoaded, releaseTag } from './release-tag.ts';
export { locusOf } from './locus.ts';
export { verdictOf } from './verdict.ts';
export * from './types.ts';
