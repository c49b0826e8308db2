/**
 * Simulator CLI.
 *
 *   npx tsx apps/simulator/src/cli.ts --gateway 127.0.0.1:9300 --collectors 5 --meters 100 --nb 10 --mqtt mqtt://127.0.0.1:1883
 *   npx tsx apps/simulator/src/cli.ts load --gateway 127.0.0.1:9300 --connections 10000 --rate 5000 --duration 30
 *
 * Runs until Ctrl-C, printing a status line every few seconds. `--help` lists the options.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createFleet, formatStatus, generateFleet } from './fleet.ts';
import { loadGenerator } from './load.ts';
import type { FleetDefinition, FleetLogger, GatewayAddress } from './types.ts';

const HELP = `智能水电表 simulator fleet

Usage:
  cli.ts [fleet options]          run a fleet until Ctrl-C
  cli.ts load [load options]      open many connections and push reports (benchmarks)

Fleet options:
  --gateway host:port             gateway TCP listener (default 127.0.0.1:9300)
  --collectors N                  collectors (default 5)
  --meters N                      meters spread over the collectors (default 100)
  --fourg N                       4G meters, one TCP connection each (default 0)
  --nb N                          NB meters over MQTT (default 0)
  --mqtt URL                      broker for NB meters (default mqtt://127.0.0.1:1883)
  --topic-prefix P                prefix for NB topics (default '')
  --definition FILE               use a FleetDefinition JSON file instead of generating one
  --dump-definition               print the (generated) definition as JSON and exit
  --water-share X                 share of water meters 0–1 (default 0.3)
  --block DIGITS                  leading digits of generated IMEIs/addresses (default from seed)
  --seed N                        random seed (default 1)
  --speed X                       simulated seconds per real second (default 1)
  --heartbeat MS                  collector heartbeat period (default 30000)
  --report-interval MS            unsolicited reports of TCP meters (default 0 = off)
  --nb-report-interval MS         unsolicited reports of NB meters (default 60000)
  --latency MS                    bus latency added to every reply (default 0)
  --no-expiry-check               accept expired remote-control commands
  --fault TARGET:NAME[=VALUE]     set a fault at start (repeatable), e.g. 100010000001:stuckValve
                                  or 860010000000001:garbage=16 or 100010000002:clockDrift=300
  --status-every MS               status line period (default 5000)
  --verbose                       log connection and actuation events

Load options:
  --gateway host:port             (default 127.0.0.1:9300)
  --connections N                 TCP connections (default 1000)
  --meters-per-connection M       meters behind each connection (default 1)
  --kind electric|water|mixed     (default electric)
  --prefix DIGITS                 leading digits of IMEIs/addresses (default 7)
  --concurrency N                 connections opening at once (default 500)
  --rate R                        report frames per second after connecting (default 0 = none)
  --duration S                    seconds to push reports (default 10)
  --heartbeat MS                  (default 30000)
  --hold                          keep the connections open until Ctrl-C after the run
Prints one JSON line per phase.`;

function parseGateway(text: string): GatewayAddress {
  const m = /^(.+):(\d+)$/.exec(text);
  if (!m) throw new Error(`--gateway must be host:port, got ${text}`);
  return { host: m[1], port: Number(m[2]) };
}

function num(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${value}`);
  return n;
}

function parseFaultValue(raw: string | undefined): unknown {
  if (raw === undefined || raw === 'true') return true;
  if (raw === 'false') return false;
  const n = Number(raw);
  if (Number.isFinite(n)) return n;
  throw new Error(`fault value must be true, false or a number, got ${raw}`);
}

async function runFleet(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      gateway: { type: 'string', default: '127.0.0.1:9300' },
      collectors: { type: 'string' },
      meters: { type: 'string' },
      fourg: { type: 'string' },
      nb: { type: 'string' },
      mqtt: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      'topic-prefix': { type: 'string', default: '' },
      definition: { type: 'string' },
      'dump-definition': { type: 'boolean', default: false },
      'water-share': { type: 'string' },
      block: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      heartbeat: { type: 'string' },
      'report-interval': { type: 'string' },
      'nb-report-interval': { type: 'string' },
      latency: { type: 'string' },
      'no-expiry-check': { type: 'boolean', default: false },
      fault: { type: 'string', multiple: true, default: [] },
      'status-every': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const seed = num(values.seed, 1, 'seed');
  const definition: FleetDefinition = values.definition
    ? (JSON.parse(readFileSync(values.definition, 'utf8')) as FleetDefinition)
    : generateFleet({
        collectors: num(values.collectors, 5, 'collectors'),
        meters: num(values.meters, 100, 'meters'),
        fourG: num(values.fourg, 0, 'fourg'),
        nb: num(values.nb, 0, 'nb'),
        waterShare: num(values['water-share'], 0.3, 'water-share'),
        block: values.block,
        seed,
      });
  if (values['dump-definition']) {
    console.log(JSON.stringify(definition, null, 2));
    return;
  }
  const logger: FleetLogger = (level, message) => {
    if (level === 'debug' && !values.verbose) return;
    if (level === 'info' && !values.verbose) return;
    const line = `[${new Date().toTimeString().slice(0, 8)}] ${level.toUpperCase()} ${message}`;
    if (level === 'error' || level === 'warn') console.error(line);
    else console.log(line);
  };
  const fleet = createFleet({
    ...definition,
    gateway: parseGateway(values.gateway),
    mqttUrl: (definition.nbMeters?.length ?? 0) > 0 ? values.mqtt : undefined,
    topicPrefix: values['topic-prefix'],
    seed,
    speed: num(values.speed, 1, 'speed'),
    heartbeatMs: num(values.heartbeat, 30_000, 'heartbeat'),
    reportIntervalMs: num(values['report-interval'], 0, 'report-interval'),
    nbReportIntervalMs: num(values['nb-report-interval'], 60_000, 'nb-report-interval'),
    replyLatencyMs: num(values.latency, 0, 'latency'),
    checkCommandExpiry: !values['no-expiry-check'],
    logger,
  });
  for (const spec of values.fault) {
    const m = /^(\d+):(\w+)(?:=(.*))?$/.exec(spec);
    if (!m) throw new Error(`--fault must be TARGET:NAME[=VALUE], got ${spec}`);
    fleet.setFault(m[1], m[2] as 'offline', parseFaultValue(m[3]));
  }
  const s0 = fleet.status();
  console.log(
    `simulator: ${s0.collectors.total} TCP connections, ${s0.meters.total} meters (${s0.nbMeters.total} NB) → gateway ${values.gateway}` +
      (s0.nbMeters.total > 0 ? `, mqtt ${values.mqtt}` : ''),
  );
  fleet.start();
  const every = num(values['status-every'], 5_000, 'status-every');
  const timer = setInterval(() => console.log(formatStatus(fleet.status())), every);
  let stopping = false;
  const shutdown = () => {
    if (stopping) process.exit(130);
    stopping = true;
    clearInterval(timer);
    console.log('stopping…');
    void fleet.stop().then(() => {
      console.log(formatStatus(fleet.status()));
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

async function runLoad(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      gateway: { type: 'string', default: '127.0.0.1:9300' },
      connections: { type: 'string' },
      'meters-per-connection': { type: 'string' },
      kind: { type: 'string', default: 'electric' },
      prefix: { type: 'string', default: '7' },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      heartbeat: { type: 'string' },
      hold: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const kind = values.kind;
  if (kind !== 'electric' && kind !== 'water' && kind !== 'mixed') throw new Error('--kind must be electric, water or mixed');
  const load = loadGenerator({
    gateway: parseGateway(values.gateway),
    connections: num(values.connections, 1000, 'connections'),
    metersPerConnection: num(values['meters-per-connection'], 1, 'meters-per-connection'),
    kind,
    prefix: values.prefix,
    connectConcurrency: num(values.concurrency, 500, 'concurrency'),
    heartbeatMs: num(values.heartbeat, 30_000, 'heartbeat'),
  });
  let stopping = false;
  const shutdown = () => {
    if (stopping) process.exit(130);
    stopping = true;
    void load.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  const connected = await load.connect();
  console.log(JSON.stringify({ phase: 'connect', ...connected, ...(await load.stats()) }));
  const rate = num(values.rate, 0, 'rate');
  if (rate > 0) {
    const result = await load.pushReports({ ratePerSecond: rate, durationMs: num(values.duration, 10, 'duration') * 1000 });
    console.log(JSON.stringify({ phase: 'reports', ...result, ...(await load.stats()) }));
  }
  if (values.hold) {
    console.log(JSON.stringify({ phase: 'hold', message: 'connections open; Ctrl-C to stop' }));
    return;
  }
  await load.stop();
  process.exit(0);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'load') await runLoad(argv.slice(1));
  else await runFleet(argv);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
