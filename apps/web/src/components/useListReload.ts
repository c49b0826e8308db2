// A list that reloads on demand from outside the table (a dialog's done, a slip printed): ResourceTable's
// `params` carry a counter, which changes the query and so reloads the list; the request leaves it out.
import { useCallback, useMemo, useState } from 'react';
import type { ListQuery } from './ResourceTable.tsx';

export function useListReload() {
  const [reloadKey, setReloadKey] = useState(0);
  const params = useMemo(() => ({ reloadKey }), [reloadKey]);
  const reload = useCallback(() => setReloadKey((k) => k + 1), []);
  return { params, reload };
}

/** The list's query as the server takes it: without the reload counter. */
export function withoutReloadKey({ reloadKey: _r, ...query }: ListQuery): ListQuery {
  return query;
}
