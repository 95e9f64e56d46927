/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each arm ranks its own hits; an item's fused
 * score is the sum over the lists it appears in of `1 / (k + rank)`, rank counted from 1. It needs no score
 * calibration between arms (a `ts_rank` and a cosine similarity are not comparable), rewards items both arms
 * found, and with k = 60 keeps one arm's top hit from drowning the other's. Ties keep first-seen order.
 */
export const RRF_K = 60;

/** A ranked list of items identified by `key`. */
export interface RankedList<T> {
  items: readonly T[];
}

/** Fuses ranked lists; returns each distinct item once with its fused score, best first. */
export function reciprocalRankFusion<T>(
  lists: readonly RankedList<T>[],
  key: (item: T) => string,
  k: number = RRF_K,
): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number; order: number }>();
  let order = 0;
  for (const list of lists) {
    list.items.forEach((item, index) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, score: 0, order: order++ };
      entry.score += 1 / (k + index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ item, score }) => ({ item, score }));
}
