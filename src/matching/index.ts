/** Donor–recipient matching: the entry points the API, the bulk jobs and the CLI use. */
export { match } from './match.ts';
export {
  MAX_LOCI_PER_SIDE,
  MAX_NAME_LENGTH,
  MAX_NAMES_PER_LOCUS,
  validateMatchRequest,
  type LocusNames,
  type ValidatedMatchRequest,
} from './validate.ts';
export { FRAMEWORK_LOCI, MATCH_LOCI, isFramework, type MatchLocus, type ScoredLocus } from './frameworks.ts';
export * from './types.ts';
