// A module loaded on first use, rendered synchronously once loaded: unlike React.lazy, a component whose
// module is already in memory (a second page, a preload) mounts in the same render, with no Suspense
// fallback in between. A module that fails to load throws from the render (the page's error boundary
// shows it) and is asked again on the next mount.
import { useEffect, useState } from 'react';

export interface LazyModule<M> {
  /** start loading (idempotent) */
  preload(): Promise<M>;
  /** the module when `wanted` (loading it then), or undefined while it loads (re-renders when it arrives) */
  useModule(wanted: boolean): M | undefined;
}

export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let mod: M | undefined;
  let pending: Promise<M> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (mod = m),
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  function useModule(wanted: boolean): M | undefined {
    const [state, setState] = useState<{ mod?: M; error?: unknown }>(() => ({ mod }));
    useEffect(() => {
      if (!wanted || state.mod) return;
      let live = true;
      preload().then(
        (m) => live && setState({ mod: m }),
        (error: unknown) => live && setState({ error }),
      );
      return () => {
        live = false;
      };
    }, [wanted, state.mod]);
    if (state.error) throw state.error;
    return wanted ? (state.mod ?? mod) : undefined;
  }
  return { preload, useModule };
}
