import { ASSISTANT_LAUNCHER } from '../app.views';
import { Link } from '../routing/link';

/** The launcher of an organization's assistants: one link per declared, addressable view. */
export function AssistantLauncher({
  organizationId,
  currentViewRef,
}: {
  organizationId: string;
  currentViewRef?: string;
}) {
  const entries = ASSISTANT_LAUNCHER.flatMap((entry) => {
    const path = entry.path(organizationId);
    return path ? [{ ...entry, path }] : [];
  });
  return (
    <nav aria-label="Assistants" className="org-bar__nav">
      <ul>
        {entries.map((entry) => (
          <li key={entry.viewRef}>
            <Link
              to={entry.path}
              className="app__nav-link"
              aria-current={entry.viewRef === currentViewRef ? 'page' : undefined}
            >
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
