// Imported by setup.ts: what antd, React and Testing Library spend CPU on under happy-dom, cut without changing
// what a test can see or assert. Profiling pages/control/control.test.tsx before this: 29% of the CPU went to
// happy-dom's getComputedStyle (Testing Library's role queries ask it whether each candidate is hidden, and
// happy-dom matches every rule of every antd <style> against the element and its ancestors), 10% to React
// capturing an owner stack for each element it creates, 9% to antd regenerating its CSS for each test, 4% to
// printing the whole DOM into errors that waitFor throws away.
import * as React from 'react';
import { StyleContext, type CSSObject, type Transformer } from '@ant-design/cssinjs';
import { Context as MotionContext } from 'rc-motion/lib/context';
import { configure, getConfig } from '@testing-library/react';

/** The value a context gives where no provider is above: the object passed to createContext, shared by every reader. */
const defaultOf = <T>(context: React.Context<T>): T => (context as React.Context<T> & { _currentValue: T })._currentValue;

// 1. antd's CSS-in-JS injects only the declarations that decide whether an element is shown (display, visibility),
// under the same selectors. What the accessibility checks of `*ByRole` and `hidden` read is unchanged: a closed
// dropdown (`.ant-select-dropdown-hidden`), an inactive tab pane, a collapsed panel stay hidden; the colours,
// sizes and spacing happy-dom cannot lay out anyway are left out, so each getComputedStyle matches a fraction of
// the rules it did.
const isNested = (v: unknown) =>
  typeof v === 'object' && v !== null && !('_keyframe' in v) && !('_skip_check_' in v) && !('_multi_value_' in v);
const visibilityOnly: Transformer = {
  visit: (style) => {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(style)) {
      if (key === 'display' || key === 'visibility' || isNested(value)) kept[key] = value;
    }
    return kept as CSSObject;
  },
};
const styles = defaultOf(StyleContext);
styles.transformers = [visibilityOnly];

// 2. The styles a component registered stay cached when its last instance unmounts (cssinjs drops them and
// regenerates them on the next mount, i.e. in every test): the same token and component give the same CSS.
const cache = styles.cache;
const opUpdate = cache.opUpdate.bind(cache);
cache.opUpdate = (key, update) =>
  opUpdate(key, (prev) => {
    const next = update(prev);
    return next === null && prev !== null ? [0, prev[1]] : next;
  });

// 3. No animations (as antd's `theme.token.motion: false`): a dialog, drawer or dropdown opens and closes in one
// render instead of stepping through rc-motion's appear/leave states and their timers.
defaultOf(MotionContext).motion = false;

// 4. React in development captures an Error stack and a console task for each element it creates (owner stacks
// for its warnings); its own limit per render is 10,000. Always at the limit: warnings keep their component
// stack, without the owner's source line.
const internals: unknown = Reflect.get(React, '__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE');
if (internals && typeof internals === 'object' && 'recentlyCreatedOwnerStacks' in internals) {
  Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { get: () => 1e4, set: () => {} });
}

// 5. A query that fails inside waitFor/findBy (each poll until the element shows) no longer prints the whole DOM
// into an error that the next poll replaces; on a timeout waitFor reports the last error with the DOM as before.
const elementError = getConfig().getElementError;
configure({
  getElementError: (message, container) => {
    if (!(getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics) {
      return elementError(message, container);
    }
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    return error;
  },
});
