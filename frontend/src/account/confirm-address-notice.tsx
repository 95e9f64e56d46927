import { useState } from 'react';
import { describeFailure } from '../api/api.client';
import { requestAddressConfirmation } from '../api/auth.client';
import { readAccessToken } from '../session/access-token.store';
import { useCurrentUser } from '../session/use-current-user';

/**
 * For an account that never confirmed its address (made before addresses were checked): invitations sent to it stay
 * hidden until it does, so it offers to mail the confirmation link.
 */
export function ConfirmAddressNotice() {
  const user = useCurrentUser();
  const [state, setState] = useState<{ kind: 'idle' | 'sending' | 'sent' } | { kind: 'failed'; message: string }>({
    kind: 'idle',
  });
  if (!user || user.emailVerified !== false) return null;

  const send = async () => {
    const accessToken = readAccessToken();
    if (!accessToken || state.kind === 'sending') return;
    setState({ kind: 'sending' });
    try {
      await requestAddressConfirmation(accessToken);
      setState({ kind: 'sent' });
    } catch (error) {
      setState({ kind: 'failed', message: describeFailure(error) });
    }
  };

  return (
    <div className="status status--warn">
      <p className="status__summary">Confirm your address to see invitations sent to it.</p>
      <p className="status__detail" role="status">
        {state.kind === 'sent'
          ? `We sent a link to ${user.email}. Open it, then come back to this page.`
          : state.kind === 'failed'
            ? state.message
            : `Only the person who reads mail at ${user.email} may answer an invitation to it.`}
      </p>
      {state.kind === 'sent' ? null : (
        <button type="button" className="button" disabled={state.kind === 'sending'} onClick={() => void send()}>
          {state.kind === 'sending' ? 'Sending…' : 'Mail me the link'}
        </button>
      )}
    </div>
  );
}
