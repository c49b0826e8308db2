import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { Providers } from './Root.tsx';

function Motion() {
  return <span data-testid="motion">{String(theme.useToken().token.motion)}</span>;
}

const asking = (reduce: boolean) =>
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));

afterEach(() => vi.restoreAllMocks());

describe('Providers: the system setting for less motion', () => {
  it('turns antd animations off for a user who asks for less motion', () => {
    asking(true);
    render(<Providers><Motion /></Providers>);
    expect(screen.getByTestId('motion').textContent).toBe('false');
  });

  it('keeps them for everyone else', () => {
    asking(false);
    render(<Providers><Motion /></Providers>);
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
