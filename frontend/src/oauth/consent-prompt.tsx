import type { OAuthConsentPrompt } from '@wildo/shared-lib';
import { useId, useRef, useState } from 'react';
import { ApiError, describeFailure } from '../api/api.client';
import { oauthConsentDecision } from '../api/oauth-consent.client';
import { leaveApp } from '../routing/navigation';
import { readAccessToken } from '../session/access-token.store';
import { redirectToLogin } from '../session/sign-in-redirect';
import { isNavigableRedirect } from './authorization-request';
import { ResourceUrl } from './resource-url';
import { ScopeList } from './scope-list';

type Decision = 'approve' | 'deny';
type Phase = { kind: 'idle' } | { kind: 'submitting'; decision: Decision } | { kind: 'leaving' };

/** The consent question for one authorization request: who asks, for which resource, with which scopes. */
export function ConsentPrompt({ prompt, signedInAs }: { prompt: OAuthConsentPrompt; signedInAs?: string }) {
  const [remember, setRemember] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  // State updates land after a re-render; a ref closes the gap between two fast clicks.
  const submittingRef = useRef(false);
  const ids = useId();
  const clientName = prompt.client.client_name || prompt.client.client_id;

  const decide = async (decision: Decision) => {
    if (submittingRef.current) return;
    const accessToken = readAccessToken();
    if (!accessToken) {
      redirectToLogin();
      return;
    }
    submittingRef.current = true;
    setPhase({ kind: 'submitting', decision });
    setError(null);
    try {
      // Only an approval can be remembered; a denial never stores anything.
      const { redirect_to } = await oauthConsentDecision(
        prompt.consent_token,
        decision,
        decision === 'approve' && remember,
        accessToken,
      );
      if (!isNavigableRedirect(redirect_to))
        throw new ApiError('The server answered with an address this page will not open.', 200, 'BAD_RESPONSE');
      setPhase({ kind: 'leaving' });
      leaveApp(redirect_to);
    } catch (failure) {
      if (failure instanceof ApiError && failure.isUnauthenticated) {
        redirectToLogin({ tokenRefused: true });
        return;
      }
      submittingRef.current = false;
      setPhase({ kind: 'idle' });
      setError(describeFailure(failure));
    }
  };

  const busy = phase.kind !== 'idle';
  return (
    <section className="panel consent" aria-labelledby={`${ids}-title`} aria-busy={busy}>
      <p className="eyebrow">Authorization request</p>
      <h1 id={`${ids}-title`} className="page-title">
        Allow <span className="consent__client">{clientName}</span> to use your account?
      </h1>
      {signedInAs ? (
        <p className="muted">
          Signed in as <strong className="break-anywhere">{signedInAs}</strong>
        </p>
      ) : null}

      <dl className="facts">
        <div className="facts__row">
          <dt>Application</dt>
          <dd>
            {clientName}
            <span className="facts__aside break-anywhere">{prompt.client.client_uri ?? prompt.client.client_id}</span>
          </dd>
        </div>
        <div className="facts__row">
          <dt>Will act for you at</dt>
          <dd>
            <ResourceUrl url={prompt.resource} />
          </dd>
        </div>
      </dl>

      <h2 className="section-title">It asks to</h2>
      <ScopeList scopes={prompt.scopes} />
      <p className="muted">It can only do what your own account is allowed to do there.</p>

      <div className="checkbox">
        <label className="checkbox__control">
          <input
            type="checkbox"
            checked={remember}
            disabled={busy}
            onChange={(event) => setRemember(event.target.checked)}
            aria-describedby={`${ids}-remember-hint`}
          />
          <span>Remember this decision</span>
        </label>
        <p id={`${ids}-remember-hint`} className="checkbox__hint">
          If you approve, {clientName} will not ask again for this same access. You can withdraw it under Remembered
          consents.
        </p>
      </div>

      {error ? (
        <div role="alert" className="status status--error">
          <p className="status__summary">Your decision was not sent.</p>
          <p className="status__detail">{error}</p>
        </div>
      ) : null}

      <div className="actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void decide('approve')}>
          Approve
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void decide('deny')}>
          Deny
        </button>
      </div>
      <p role="status" className="muted live">
        {phase.kind === 'submitting'
          ? 'Sending your decision…'
          : phase.kind === 'leaving'
            ? `Returning you to ${clientName}…`
            : ''}
      </p>
    </section>
  );
}
