/**
 * Wraps an async task so that one run at a time is in progress: a call during a run asks for one more
 * run right after it (however many calls came meanwhile), so whatever a call was made for is seen by a
 * run that starts after it. The returned promise settles when the runs in progress and asked for end; a
 * run that throws ends the series with that error, and the next call starts afresh.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await task();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
