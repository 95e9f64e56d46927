/** How a RAG source field's text is cut into chunks before indexing. */
export enum RAGChunkingStrategy {
  /** Split on paragraphs, then lines, then words, until chunks fit. */
  RECURSIVE = 'RECURSIVE',
  /** Split on Markdown headings first, keeping each section's heading with its text. */
  MARKDOWN = 'MARKDOWN',
}
