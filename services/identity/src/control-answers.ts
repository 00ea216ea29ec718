/**
 * docs/api-contract.md, "Recovery": answers are compared after Unicode NFKC, trimming, case folding
 * and collapsing white space, so "  Rex " and "rex" are the same answer. Upper- then lower-casing
 * folds the cases that lower-casing alone misses (ß and SS, final sigma).
 */
export function normalizeControlAnswer(answer: string): string {
  return answer.normalize("NFKC").trim().toUpperCase().toLowerCase().replace(/\s+/gu, " ");
}
