import { Link } from './routing/link';
import { useDocumentTitle } from './routing/document-title';

/** Any path the app does not know. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="panel" aria-labelledby="not-found-title">
      <h1 id="not-found-title" className="page-title">
        Page not found
      </h1>
      <p>There is no page at this address.</p>
      <Link to="/" className="button">
        Go to the home page
      </Link>
    </section>
  );
}
