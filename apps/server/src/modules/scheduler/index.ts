// Public face of the scheduler module: the one scheduler for all timed work, and /task's job list.
export { default as schedulerRoutes } from './routes.ts';
export { Scheduler, RECORD_EVERY_MS, type JobSpec } from './scheduler.ts';
