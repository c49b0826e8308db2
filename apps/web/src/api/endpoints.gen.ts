// Generated from packages/contracts/src/endpoints by `npm run gen:client` — do not edit.
// The browser gets each declared endpoint's method, path and paging (endpoints.gen.json, data), typed by
// its declaration (a type-only import: no schema in the bundle). api/endpoint.ts `call` sends them.
import type { API, RouteTable } from '@meter/contracts';
import routes from './endpoints.gen.json';

export const E = routes as RouteTable<typeof API>;
