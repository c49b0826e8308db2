// Vitest setup for the web project (jsdom): what antd needs from the browser, and cleanup between tests.
import { afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';

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

// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom does not implement
const realGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element, pseudo?: string | null) => realGetComputedStyle(elt, pseudo ? undefined : pseudo);

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// ResourceTable loads ProTable (ProTableView) and the dialog's ProForm (ResourceForm) lazily, as the
// browser does; a test would otherwise spend its findBy timeout on transforming and evaluating them
beforeAll(async () => {
  await Promise.all([import('../components/ProTableView.tsx'), import('../components/ResourceForm.tsx')]);
}, 120_000);
