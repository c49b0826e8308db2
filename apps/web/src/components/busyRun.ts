// An action whose refusal the request wrapper shows (a toast): `busy` while it runs; a failure leaves the
// form as it is (open, with what was typed). Kept apart from submit.tsx so the owner pages (H5) take no
// more of antd with it.
import { useState } from 'react';

export function useBusyRun() {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      // the request wrapper showed the server's reason; the form stays open
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
