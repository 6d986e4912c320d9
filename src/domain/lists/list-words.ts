/**
 * The words a long list's search matches: the lower-case runs of letters and digits of a text (accents dropped),
 * and, for a key (`joined`), all of them run together, so that "SE7600H-US" is found by "se7600h", "us" and "se7600hus".
 */
export function searchWords(text: string, joined = true): string[] {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
  return [...new Set(joined && words.length > 1 ? [...words, words.join('')] : words)].map((w) => w.slice(0, 100));
}

/** The words of a search as typed, each a prefix a row's word must start with (at most 8, each at most 100 characters). */
export function queryWords(text: string): string[] {
  return [...new Set(text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== ''))]
    .slice(0, 8).map((w) => w.slice(0, 100));
}
