// 业主端 live updates (SPEC §7 {auth, imei}, §4 reconnect): one websocket to /ws with the owner token;
// the server sends the events of the owner's own meters (readings, switching, online). Reconnects and
// the no-WebSocket fallback (the pages keep their periodic refresh): api/live.ts.
import { ownerToken } from './session.ts';
import { liveChannel, type LiveEvent } from '../api/live.ts';

export type OwnerEvent = LiveEvent;

const channel = liveChannel(ownerToken);

/** Listen to the owner's device events; returns the unsubscribe function. */
export const onOwnerEvent = (fn: (e: OwnerEvent) => void): (() => void) => channel.listen(fn);
