import { useEffect } from 'react';

/** Sets the tab title for the current page, suffixed with the product name. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Wildo`;
  }, [title]);
}
