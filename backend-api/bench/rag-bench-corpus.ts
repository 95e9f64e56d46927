/** Deterministic synthetic documents and questions for `pnpm bench:rag` (no randomness between runs). */

/** A small linear congruential generator: the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'xe',
  'zu',
  'ber',
  'dan',
  'fel',
  'gor',
  'hal',
  'jin',
];

/** A vocabulary of pronounceable words; low indexes are drawn far more often (a Zipf-like text). */
export function vocabulary(size: number): string[] {
  const random = seededRandom(7);
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

function zipfPick(words: readonly string[], random: () => number): string {
  return words[Math.floor(words.length * random() ** 2.5)] ?? words[0] ?? 'word';
}

/** A knowledge document: a title of 3 words and a Markdown body of 2 to 4 sections. */
export function syntheticDocument(index: number, words: readonly string[]): { title: string; body: string } {
  const random = seededRandom(1_000 + index);
  const sentence = (n: number) => Array.from({ length: n }, () => zipfPick(words, random)).join(' ');
  const sections = 2 + Math.floor(random() * 3);
  const body = Array.from(
    { length: sections },
    (_, s) => `## ${sentence(3)} ${s}\n\n${Array.from({ length: 4 }, () => `${sentence(12)}.`).join(' ')}`,
  ).join('\n\n');
  return { title: `${sentence(3)} ${index}`, body };
}

/** Questions of 2 to 4 words drawn like the documents' words. */
export function syntheticQuestions(count: number, words: readonly string[]): string[] {
  const random = seededRandom(99);
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, () => zipfPick(words, random)).join(' '),
  );
}
