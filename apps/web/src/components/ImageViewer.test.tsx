import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ImageViewer, VIEWER_UI_HIDE_MS } from './ImageViewer.tsx';

// SPEC §4/§9: Esc or q closes, → or l next, ← or h previous; the UI hides after 3.5 s.

const images = [{ src: '/a.png', name: '甲' }, { src: '/b.png', name: '乙' }, { src: '/c.png', name: '丙' }];
const shown = () => screen.getByRole('dialog', { name: '图片查看器' }).querySelector('img')?.getAttribute('src');
const key = (k: string) => act(() => void fireEvent.keyDown(window, { key: k }));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('image viewer', () => {
  it('l / → show the next image, h / ← the previous one, wrapping around', () => {
    render(<ImageViewer open images={images} start={1} onClose={() => {}} />);
    expect(shown()).toBe('/b.png');
    expect(screen.getByText('2 / 3')).toBeTruthy();
    key('l');
    expect(shown()).toBe('/c.png');
    key('ArrowRight');
    expect(shown()).toBe('/a.png');
    key('h');
    expect(shown()).toBe('/c.png');
    key('ArrowLeft');
    expect(shown()).toBe('/b.png');
    // other keys do nothing
    key('x');
    expect(shown()).toBe('/b.png');
  });

  it('Esc and q close it', () => {
    const onClose = vi.fn();
    const { rerender } = render(<ImageViewer open images={images} onClose={onClose} />);
    key('Escape');
    expect(onClose).toHaveBeenCalledTimes(1);
    key('q');
    expect(onClose).toHaveBeenCalledTimes(2);
    rerender(<ImageViewer open={false} images={images} onClose={onClose} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    key('q');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('the UI hides after 3.5 s without a mouse movement and comes back with one', () => {
    render(<ImageViewer open images={images} onClose={() => {}} />);
    const ui = screen.getByTestId('image-viewer-ui');
    expect(VIEWER_UI_HIDE_MS).toBe(3500);
    expect(ui.getAttribute('aria-hidden')).toBe('false');
    act(() => void vi.advanceTimersByTime(3400));
    expect(ui.getAttribute('aria-hidden')).toBe('false');
    act(() => void vi.advanceTimersByTime(100));
    expect(ui.getAttribute('aria-hidden')).toBe('true');
    expect(ui.style.opacity).toBe('0');
    fireEvent.mouseMove(screen.getByRole('dialog'));
    expect(ui.getAttribute('aria-hidden')).toBe('false');
    act(() => void vi.advanceTimersByTime(3000));
    fireEvent.mouseMove(screen.getByRole('dialog'));
    act(() => void vi.advanceTimersByTime(3000));
    // 3 s after the last movement: still shown
    expect(ui.getAttribute('aria-hidden')).toBe('false');
    act(() => void vi.advanceTimersByTime(500));
    expect(ui.getAttribute('aria-hidden')).toBe('true');
  });

  it('the arrows and the close button work with the mouse', () => {
    const onClose = vi.fn();
    render(<ImageViewer open images={images} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: '下一张' }));
    expect(shown()).toBe('/b.png');
    fireEvent.click(screen.getByRole('button', { name: '上一张' }));
    expect(shown()).toBe('/a.png');
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
