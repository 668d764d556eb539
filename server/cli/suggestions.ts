/**
 * The nearest spelling of a mistyped command or option: "Did you mean --since?"
 */

/** " Did you mean --since?" for the nearest candidate within a couple of typing slips, else "". */
export function suggestion(typed: string, candidates: readonly string[], prefix: string): string {
  const name = nearest(typed, candidates);
  return name === undefined ? '' : ` Did you mean ${prefix}${name}?`;
}

/** The candidate a couple of typing slips away (or that the word, or its one letter as in `-y`, begins), if any. */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.replace(/^-+/, '').toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const begins = name.startsWith(word) && (word.length >= 3 || word.length === 1);
    const distance = begins ? 1 : editDistance(word, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
