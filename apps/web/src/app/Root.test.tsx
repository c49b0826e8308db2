import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { Providers } from './Root.tsx';

function Motion() {
  return <span data-testid="motion">{String(theme.useToken().token.motion)}</span>;
}

const REDUCE = '(prefers-reduced-motion: reduce)';
const real = window.matchMedia.bind(window);
/** The system setting: every media query answers as before, the reduced-motion one as asked. */
const asking = (reduce: boolean) =>
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    Object.defineProperty(Object.create(real(query)), 'matches', { value: reduce && query === REDUCE }));

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
