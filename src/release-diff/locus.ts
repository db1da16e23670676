/**
 * The locus a compared name is counted under. Legacy `Cw` names count as `C`: the locus was
 * renamed in 2010, and a reviewer of C changes wants them together.
 */
export const NO_LOCUS = '?';

export function locusOf(name: string): string {
  const bare = name.startsWith('HLA-') ? name.slice(4) : name;
  const star = bare.indexOf('*');
  if (star <= 0) return NO_LOCUS;
  const locus = bare.slice(0, star);
  return locus === 'Cw' ? 'C' : locus;
}
