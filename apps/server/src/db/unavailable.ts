// Is an error of a database call the database being away (stopped, restarting, unreachable, refusing
// connections, out of connections) rather than something wrong with the statement? Work that must
// not be lost waits and tries again on the first kind; the second is a bug or bad data, and trying
// again cannot help.

const CODE = /^[0-9A-Z]{5}$/;
const LOST = /connection terminated|connection (?:error|timeout)|timeout exceeded when trying to connect|client was closed|not queryable/i;

export function databaseUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !CODE.test(code)) {
    // no SQLSTATE: a socket error (ECONNREFUSED, ECONNRESET, …), a connection lost, a pool timeout —
    // anything else (a TypeError of ours) is no outage
    return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || LOST.test(e.message);
  }
  // 08 connection exception, 57P01-57P03 shutdown / cannot connect now, 53 insufficient resources
  if (code.startsWith('08') || code.startsWith('57P') || code.startsWith('53')) return true;
  // the database does not take connections right now (ALLOW_CONNECTIONS false, being dropped or created)
  if (code === '55000' && /accepting connections/.test(e.message)) return true;
  // serialization failure and deadlock: the same work succeeds when tried again
  return code === '40001' || code === '40P01';
}
