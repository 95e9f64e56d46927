import type { Dispatch, SetStateAction } from 'react';

/**
 * Previous and next page of a cursor-paginated list. `cursors` holds the cursors of the pages shown so far (the
 * first page's is `undefined`); the last one is the current page's.
 */
export function PageNavigation({
  cursors,
  setCursors,
  nextCursor,
}: {
  cursors: ReadonlyArray<string | undefined>;
  setCursors: Dispatch<SetStateAction<Array<string | undefined>>>;
  nextCursor: string | null;
}) {
  return (
    <nav aria-label="Pages" className="actions">
      <button
        type="button"
        className="button"
        disabled={cursors.length === 1}
        onClick={() => setCursors((current) => current.slice(0, -1))}
      >
        Previous page
      </button>
      <button
        type="button"
        className="button"
        disabled={nextCursor === null}
        onClick={() => {
          if (nextCursor) setCursors((current) => [...current, nextCursor]);
        }}
      >
        Next page
      </button>
    </nav>
  );
}
