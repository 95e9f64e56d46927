/** `/organizations/:id/usage`: placeholder replaced by the consumption page. */
export function UsagePage({ organizationId }: { organizationId: string }) {
  return <p>{organizationId}</p>;
}
