// A lazily loaded page whose chunk can also be fetched ahead of rendering (menu hover/click, route
// match): preload() starts the same import the first render would, so the two never load it twice.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type Page = LazyExoticComponent<ComponentType> & { preload(): void };

export function lazyPage(load: () => Promise<{ default: ComponentType }>): Page {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const once = () => {
    pending ??= load().catch((e: unknown) => {
      pending = undefined; // a chunk that failed to load is asked again next time
      throw e;
    });
    return pending;
  };
  return Object.assign(lazy(once), { preload: () => void once().catch(() => undefined) });
}

/** A named export of a page module as a lazy page. */
export const namedPage = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M): Page =>
  lazyPage(async () => ({ default: (await load())[name] as ComponentType }));
