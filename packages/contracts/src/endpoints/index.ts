import type { Endpoint } from '../endpoint.ts';
import { authEndpoints } from './auth.ts';
import { systemEndpoints } from './system.ts';
import { financeEndpoints } from './finance.ts';
import { appealEndpoints } from './appeal.ts';

// Every declared endpoint, by domain. The server registers each (http/routes.ts `r.endpoint`), the web
// calls them (api/endpoint.ts), and endpoints.int.test.ts checks declarations ↔ registered routes.

export * from './auth.ts';
export * from './system.ts';
export * from './finance.ts';
export * from './appeal.ts';

export const API = {
  auth: authEndpoints,
  system: systemEndpoints,
  finance: financeEndpoints,
  appeal: appealEndpoints,
};

/** The flat list, for the declaration test and /docs. */
export const ENDPOINTS: Endpoint[] = Object.values(API).flatMap((group) => Object.values(group) as Endpoint[]);
