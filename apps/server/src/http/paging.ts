import type { PageQuery } from '@meter/contracts';

// The shared query pieces are declared in packages/contracts (query.ts) with the endpoints that use
// them; re-exported here for the routes not yet moved onto declarations.
export { AreaFilter, IdParams, IdQuery, IdsBody, optText, PageQuery } from '@meter/contracts';

export const offsetOf = (q: PageQuery) => (q.index - 1) * q.size;
