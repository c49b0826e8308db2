// The only SQL of device control, by concern: readings and the latest value, commands and their
// lifecycle, read tasks, warnings, protections, configs and the lists behind the control pages.
// Row-level security (the transaction's scope) limits every statement to the caller's company and
// areas; the gateway and the worker run in the system scope.
export * from './readings.ts';
export * from './warnings.ts';
export * from './commands.ts';
export * from './read-tasks.ts';
export * from './lists.ts';
export * from './protections.ts';
export * from './housekeeping.ts';
