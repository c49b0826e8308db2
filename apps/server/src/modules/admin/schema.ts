// The admin module's inputs are declared with its endpoints (packages/contracts/src/endpoints/admin.ts).

/** The pages without which nobody of a company can manage its accounts and roles. */
export const ADMIN_ROUTES = ['systemRole', 'systemRecords'];
