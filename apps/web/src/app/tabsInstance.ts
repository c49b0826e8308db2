// The app's single tabs store: persisted unless switched off in /headSet, restored at start-up.
import { ROUTE_BY_KEY } from '@meter/contracts';
import { createTabsStore } from './tabs.ts';
import { settingsStore } from './settings.ts';
import { onSessionCleared } from './session.ts';

export const tabsStore = createTabsStore({
  persist: () => settingsStore.get().persistTabs,
  isValid: (key) => key in ROUTE_BY_KEY,
});
tabsStore.restore();
onSessionCleared(() => tabsStore.reset());
