/** `/admin/budgets`: placeholder replaced by the plans and overrides page. */
export function BudgetsAdminPage() {
  return <p>Plans</p>;
}
