/** The reference-data credit line carried by verify, normalize and match responses (DOMAIN_RULES §1). */
export function attributionLine(release: string, tag: string): string {
  return (
    `HLA nomenclature data: IPD-IMGT/HLA Database release ${release} ` +
    `(Barker DJ et al., Nucleic Acids Research 2025), from github.com/ANHIG/IMGTHLA at ${tag}, ` +
    'licensed CC-BY-ND 4.0.'
  );
}
