const SCOPE_WORDS: Record<string, string> = {
  openid: 'Confirm who you are (your account identifier)',
  profile: 'See your profile: your display name',
  email: 'See your email address',
};

/** A scope in plain words; an unknown scope is shown as such rather than guessed at. */
export function describeScope(scope: string): string {
  return SCOPE_WORDS[scope] ?? 'A permission this page does not know how to describe';
}

/** The requested or granted scopes, each in plain words with its technical name beside it. */
export function ScopeList({ scopes, className }: { scopes: readonly string[]; className?: string }) {
  if (scopes.length === 0) return <p className={className}>No account details.</p>;
  return (
    <ul className={['scope-list', className].filter(Boolean).join(' ')}>
      {scopes.map((scope) => (
        <li key={scope} className="scope-list__item">
          <span>{describeScope(scope)}</span> <code className="scope-list__code">{scope}</code>
        </li>
      ))}
    </ul>
  );
}
