/**
 * Child-process side of `spawnLoadGenerator()`: runs a `loadGenerator()` and answers IPC calls.
 * Started as `node --import tsx load-worker.ts '<LoadGeneratorOptions JSON>'`.
 */
import { loadGenerator, type LoadGeneratorOptions, type LoadWorkerRequest, type LoadWorkerResponse } from './load.ts';

if (!process.send) {
  console.error('load-worker.ts must be started with an IPC channel (spawnLoadGenerator)');
  process.exit(2);
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadGeneratorOptions;
const generator = loadGenerator(options);

function send(message: LoadWorkerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, {}, () => resolve());
  });
}

process.on('message', async (request: LoadWorkerRequest) => {
  try {
    let result: unknown;
    switch (request.op) {
      case 'connect':
        result = await generator.connect(request.timeoutMs);
        break;
      case 'prepareReports':
        result = await generator.prepareReports(request.count);
        break;
      case 'pushReports':
        result = await generator.pushReports(request.options);
        break;
      case 'stats':
        result = await generator.stats();
        break;
      case 'meterStates':
        result = await generator.meterStates();
        break;
      case 'stop':
        await generator.stop();
        await send({ id: request.id, ok: true, result: null });
        process.exit(0);
    }
    await send({ id: request.id, ok: true, result });
  } catch (e) {
    await send({ id: request.id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
});

// The parent went away: close everything and leave.
process.on('disconnect', () => {
  void generator.stop().finally(() => process.exit(0));
});

void send({ ready: true });
