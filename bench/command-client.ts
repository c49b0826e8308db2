// Child process of bench/connections.ts: sends read commands through the real HTTP API (its own
// process, its own event loop, keep-alive connections), each waiting for its result, and sends the
// round trips back over IPC. Started by connections.ts with `{ url, token, ids, concurrency }` as argv[2].
import { performance } from 'node:perf_hooks';

interface Job {
  url: string;
  token: string;
  ids: number[];
  concurrency: number;
}

if (!process.send) {
  console.error('command-client.ts is started by bench/connections.ts (IPC channel)');
  process.exit(2);
}

async function run(job: Job) {
  const times: number[] = [];
  const errors: string[] = [];
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.ids.length) {
        const id = job.ids[next++];
        const t = performance.now();
        try {
          const r = await fetch(`${job.url}/device/api/v1/device/order/read`, {
            method: 'POST',
            headers: { authorization: job.token, 'content-type': 'application/json' },
            body: JSON.stringify({ ids: [id] }),
          });
          const body = (await r.json()) as { data?: { commands?: { status?: string; error?: string }[] } };
          times.push(performance.now() - t);
          const c = body.data?.commands?.[0];
          if (c?.status !== 'succeeded') {
            failed++;
            if (errors.length < 5) errors.push(`${r.status} ${c?.status ?? ''} ${c?.error ?? JSON.stringify(body).slice(0, 200)}`);
          }
        } catch (e) {
          times.push(performance.now() - t);
          failed++;
          if (errors.length < 5) errors.push(String(e));
        }
      }
    }),
  );
  return { times, failed, errors };
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
run(job).then(
  (result) => process.send!(result, undefined, {}, () => process.exit(0)),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
