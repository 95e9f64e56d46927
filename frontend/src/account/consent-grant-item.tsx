import { When } from '../ui/dates';
import type { ConsentGrantRecord } from '../api/consent-grants.client';
import { ResourceUrl } from '../oauth/resource-url';
import { ScopeList } from '../oauth/scope-list';

/** One remembered consent: client, resource, scopes, expiry, and its Withdraw button. */
export function ConsentGrantItem({
  grant,
  withdrawing,
  disabled,
  onWithdraw,
}: {
  grant: ConsentGrantRecord;
  withdrawing: boolean;
  disabled: boolean;
  onWithdraw: (grant: ConsentGrantRecord) => void;
}) {
  const clientName = grant.clientName || grant.clientId;
  const expiresAt = new Date(grant.expiresAt);
  const expired = expiresAt.getTime() <= Date.now();
  const headingId = `grant-${grant._id}-client`;
  return (
    <li className="grant" aria-labelledby={headingId} aria-busy={withdrawing}>
      <h2 id={headingId} className="grant__client">
        {clientName}
      </h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>Acts for you at</dt>
          <dd>
            <ResourceUrl url={grant.resource} />
          </dd>
        </div>
        <div className="facts__row">
          <dt>Allowed to</dt>
          <dd>
            <ScopeList scopes={grant.scopes} className="scope-list--compact" />
          </dd>
        </div>
        <div className="facts__row">
          <dt>{expired ? 'Expired' : 'Expires'}</dt>
          <dd>
            <When iso={grant.expiresAt} dateOnly />
          </dd>
        </div>
      </dl>
      <button
        type="button"
        className="button button--danger"
        disabled={disabled}
        aria-label={`${withdrawing ? 'Withdrawing' : 'Withdraw'} consent for ${clientName}`}
        onClick={() => onWithdraw(grant)}
      >
        {withdrawing ? 'Withdrawing…' : 'Withdraw'}
      </button>
    </li>
  );
}
