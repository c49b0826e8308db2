import type { Route } from '../modules/control/index.ts';
import { DeviceError, type RequestOptions } from './channel.ts';
import type { GatewayParts } from './context.ts';
import type { Decoded, DeviceRequest } from './frames.ts';

// Which way a request goes to a meter: the TCP connection of its collector/DTU or of the 4G meter
// itself (by IMEI), else its MQTT channel when this gateway serves the MQTT meters.

/** Does this gateway hold a way to the meter? */
export function holds(g: GatewayParts, route: Route): boolean {
  if (route.imei && g.listener.has(route.imei)) return true;
  return route.mqtt && g.mqtt.serves && !g.mqtt.offline(route.address);
}

/** Sends a request to the meter the route names and resolves with its reply. */
export function transact(g: GatewayParts, route: Route, req: DeviceRequest, opts?: RequestOptions): Promise<Decoded | null> {
  if (g.stopped) return Promise.reject(new DeviceError('offline'));
  if (route.imei) {
    const channel = g.listener.channelOf(route.imei);
    if (channel) return channel.request(req, opts);
  }
  if (route.mqtt && g.mqtt.serves) {
    if (g.mqtt.offline(route.address)) return Promise.reject(new DeviceError('offline'));
    return g.mqtt.channel(route.address).request(req, opts);
  }
  return Promise.reject(new DeviceError('offline'));
}
