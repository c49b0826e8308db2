import { ProtocolError } from './errors.ts';

/** The ProtocolError `fn` throws; any other error is rethrown, and nothing thrown fails the test. */
export function errorOf(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
  throw new Error('expected a ProtocolError, nothing was thrown');
}
