import { Link } from '../routing/link';
import { useDocumentTitle } from '../routing/document-title';
import { useIsSignedIn } from '../session/access-token.store';

const FEATURES = [
  {
    title: 'Todos for the whole team',
    text: 'Create, assign and filter your organization’s todos. Everyone sees only what their role allows.',
  },
  {
    title: 'A knowledge base that answers',
    text: 'Attach PDFs and notes to documents, then ask a question and get the passages that answer it.',
  },
  {
    title: 'An assistant that asks first',
    text: 'The assistant reads and changes your todos for you, and waits for your approval before any change.',
  },
] as const;

/** `/`: what this application is, and the way in (create an account or sign in; once signed in, your organizations). */
export function HomePage() {
  useDocumentTitle('Todos, knowledge and an assistant for your organization');
  const signedIn = useIsSignedIn();
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title" className="hero__title">
          Your organization’s todos, knowledge and assistant in one place
        </h1>
        <p className="hero__lead">
          Wildo keeps your team’s todos and documents together, answers questions from your documents with their
          sources, and gives you an assistant that works on your behalf, with your approval.
        </p>
        <div className="actions hero__actions">
          {signedIn ? (
            <Link to="/organizations" className="button button--primary">
              Go to your organizations
            </Link>
          ) : (
            <>
              <Link to="/signup" className="button button--primary">
                Create an account
              </Link>
              <Link to="/login?next=%2Forganizations" className="button">
                Sign in
              </Link>
            </>
          )}
        </div>
      </section>
      <ul className="features" aria-label="What you can do">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="panel feature">
            <h2 className="panel__title">{feature.title}</h2>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
      <p className="muted home__footer">
        Running this server yourself?{' '}
        <Link className="tap-link" to="/status">
          See the backend status
        </Link>
        .
      </p>
    </>
  );
}
