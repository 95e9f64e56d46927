import type { RagPassage, RagRetrievalRow, RagTruncation } from './retrieval.types.js';

/** A fused hit: one chunk of one record. */
export interface FusedHit {
  resourceType: string;
  resourceId: string;
  header: string;
  passage: RagPassage;
}

/** The framing of one row: its header and source, then its passages in reading order. */
export function frameRow(
  resourceType: string,
  resourceId: string,
  header: string,
  passages: readonly RagPassage[],
): string {
  return `### ${header}\n(source: ${resourceType} ${resourceId})\n${passages.map((p) => p.text).join('\n[...]\n')}`;
}

const ROW_SEPARATOR = '\n\n';

/**
 * Groups the best `limit` hits by record (rows ranked by their best passage, passages in reading order) and
 * fits the framed rows into `maxContextCharacters`: a row that does not fit keeps the passages that do, and the
 * rows after it are left out. What was cut is reported, never hidden.
 */
export function assembleContext(
  hits: readonly FusedHit[],
  limit: number,
  maxContextCharacters: number,
): { rows: RagRetrievalRow[]; contextCharacters: number; truncation: RagTruncation } {
  const grouped = new Map<string, { first: FusedHit; passages: RagPassage[]; score: number }>();
  for (const hit of hits.slice(0, limit)) {
    const key = `${hit.resourceType}\u0000${hit.resourceId}`;
    const group = grouped.get(key) ?? { first: hit, passages: [], score: hit.passage.score };
    group.passages.push(hit.passage);
    grouped.set(key, group);
  }
  const rows: RagRetrievalRow[] = [];
  let used = 0;
  let omittedRows = 0;
  let omittedPassages = 0;
  let reached = false;
  for (const { first, passages, score } of grouped.values()) {
    const ordered = [...passages].sort((a, b) =>
      a.field === b.field ? a.chunkIndex - b.chunkIndex : a.field < b.field ? -1 : 1,
    );
    if (reached) {
      omittedRows++;
      omittedPassages += ordered.length;
      continue;
    }
    const separator = rows.length > 0 ? ROW_SEPARATOR.length : 0;
    const kept: RagPassage[] = [];
    for (const passage of ordered) {
      const candidate = frameRow(first.resourceType, first.resourceId, first.header, [...kept, passage]);
      if (used + separator + candidate.length <= maxContextCharacters) kept.push(passage);
      else {
        reached = true;
        omittedPassages++;
      }
    }
    if (kept.length === 0) {
      omittedRows++;
      continue;
    }
    const contextText = frameRow(first.resourceType, first.resourceId, first.header, kept);
    used += separator + contextText.length;
    rows.push({
      resourceType: first.resourceType,
      resourceId: first.resourceId,
      header: first.header,
      passages: kept,
      contextText,
      score,
    });
  }
  return {
    rows,
    contextCharacters: used,
    truncation: { reachedContextCharacterBudget: reached, maxContextCharacters, omittedRows, omittedPassages },
  };
}
