// The large screen's figures: asked on mount, then again on a timer, and soon after a live event
// that changes them (a reading stored, a top-up, a valve switched, a warning) — at most once per
// THROTTLE_MS however many events arrive. A tab in the background asks nothing until shown again.
// Everything it starts (the timer, the pending refresh, the socket listener) ends with the component.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScreenSummaryData } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { onDeviceEvent, type DeviceEvent } from '../control/live.ts';

export const THROTTLE_MS = 4_000;
export const REFRESH_MS = 30_000;

/** Events that change a figure of the screen. */
export function relevant(e: DeviceEvent): boolean {
  if (e.type === 'reading' || e.type === 'payment' || e.type === 'warning' || e.type === 'online') return true;
  // a valve switched (断电/复电): a command of that kind that has finished
  return e.type === 'command' && (e.data.kind === 'open' || e.data.kind === 'close') && e.data.status === 'succeeded';
}

export interface ScreenState {
  data: ScreenSummaryData | null;
  error: string;
  loading: boolean;
  updatedAt: number | null;
}

export function useScreenData(companyId: string, active: boolean): ScreenState & { refresh: () => void } {
  const [state, setState] = useState<ScreenState>({ data: null, error: '', loading: true, updatedAt: null });
  const last = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const stale = useRef(false);
  const alive = useRef(true);
  const activeRef = useRef(active);
  activeRef.current = active;

  const load = useCallback(async () => {
    if (!activeRef.current) {
      stale.current = true;
      return;
    }
    if (inFlight.current) {
      stale.current = true;
      return;
    }
    inFlight.current = true;
    stale.current = false;
    last.current = Date.now();
    try {
      const data = await call(E.screen.summary, { query: companyId ? { searchCompanyID: Number(companyId) } : {} }, { silent: true });
      if (alive.current) setState({ data, error: '', loading: false, updatedAt: Date.now() });
    } catch (e) {
      if (alive.current) setState((s) => ({ ...s, loading: false, error: (e as Error).message || '大屏数据加载失败，稍后自动重试' }));
    } finally {
      inFlight.current = false;
    }
  }, [companyId]);

  /** Soon, but no sooner than THROTTLE_MS after the last ask; one pending ask at most. */
  const soon = useCallback(() => {
    if (pending.current) return;
    const wait = Math.max(0, last.current + THROTTLE_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = null;
      void load();
    }, wait);
  }, [load]);

  useEffect(() => {
    alive.current = true;
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    const off = onDeviceEvent((e) => {
      if (relevant(e)) soon();
    });
    return () => {
      alive.current = false;
      clearInterval(timer);
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
      off();
    };
  }, [load, soon]);

  // shown again after changes in the background: ask now
  useEffect(() => {
    if (active && stale.current) soon();
  }, [active, soon]);

  return { ...state, refresh: soon };
}
