// Vitest setup for the web project (happy-dom): what antd needs from the browser, and cleanup between tests.
import { afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';
import './lean.ts';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStub;
}

// happy-dom has no window.print (jsdom's does nothing): the receipt and day-close slips call it, tests spy on it
if (typeof window.print !== 'function') window.print = () => {};

// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom does not implement
const realGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element, pseudo?: string | null) => realGetComputedStyle(elt, pseudo ? undefined : pseudo);

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// ResourceTable loads ProTable (ProTableView) and the dialog's ProForm (ResourceForm) on first use, as the
// browser does; loaded here, they render in the same pass as before (a test's findBy timeout is not spent
// on transforming and mounting them)
beforeAll(async () => {
  const { preloadTableStack } = await import('../components/ResourceTable.tsx');
  await preloadTableStack();
}, 120_000);
