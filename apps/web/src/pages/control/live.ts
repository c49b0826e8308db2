// The live device channel of the back-office (SPEC §3/§4/§7): one websocket to /ws per tab, shared by
// the pages that watch devices, signed in with the session token. The server sends the company's device
// events {type: 'reading'|'command'|'online'|'warning', data}, and to an open /screen {type: 'payment',
// data} for each top-up. Reconnects and the no-WebSocket fallback: api/live.ts.
import { getToken } from '../../app/session.ts';
import { liveChannel, type LiveEvent } from '../../api/live.ts';

export type DeviceEvent = LiveEvent;

const channel = liveChannel(getToken);

/** Whether live events are arriving (pages poll less often then). */
export const liveReady = (): boolean => channel.ready();

/** Listen to device events; returns the unsubscribe function. Without WebSocket support: alerts once, returns a no-op. */
export const onDeviceEvent = (fn: (e: DeviceEvent) => void): (() => void) => channel.listen(fn);
