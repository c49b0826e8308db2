import { useStore } from './store.ts';
import { lockAnimation, LOCK_ANIMATION_MS } from './lock.ts';

/** The lock animation: a circle that grows over the screen for 3 s (SPEC §4, §9). */
export function LockOverlay() {
  const { running } = useStore(lockAnimation);
  if (!running) return null;
  return (
    <div className="lock-overlay" data-testid="lock-overlay" style={{ animationDuration: `${LOCK_ANIMATION_MS}ms` }} />
  );
}
