// 业主端 data: the owner's rooms (balances and supply), refreshed by the live channel (a reading or a
// switching of their meters, debounced) and every minute.
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OwnerMe, OwnerRoom } from '@meter/contracts';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { onOwnerEvent } from './live.ts';

export const ME_KEY = ['owner', 'me'] as const;
/** after a live event, wait this long (settlement follows a reading) before reading the balances again */
export const LIVE_REFRESH_MS = 1500;

export function useMe() {
  const client = useQueryClient();
  useEffect(() => {
    let t: ReturnType<typeof setTimeout> | undefined;
    const off = onOwnerEvent(() => {
      clearTimeout(t);
      t = setTimeout(() => void client.invalidateQueries({ queryKey: ME_KEY }), LIVE_REFRESH_MS);
    });
    return () => {
      clearTimeout(t);
      off();
    };
  }, [client]);
  return useQuery<OwnerMe>({ queryKey: ME_KEY, queryFn: () => call(E.ownerApp.me), refetchInterval: 60_000, staleTime: 5_000 });
}

export const SUPPLY_TEXT: Record<string, { text: string; color: string }> = {
  off: { text: '已断电', color: 'error' },
  closing: { text: '断电中', color: 'warning' },
  pending: { text: '待断电', color: 'warning' },
  protected: { text: '保电中', color: 'processing' },
  on: { text: '欠费未断', color: 'warning' },
};
export const WATER_SUPPLY_TEXT: Record<string, string> = { off: '已关阀', closing: '关阀中', pending: '待关阀', protected: '保水中', on: '欠费未关阀' };

/** A room's account of this wallet (or none). */
export const accountOf = (room: OwnerRoom, wallet: string) => room.accounts.find((a) => a.wallet === wallet);
