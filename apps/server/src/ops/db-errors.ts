// Whether an error means the database cannot be reached (it is down, restarting, or the connection
// was cut) rather than a fault of the request: such a request is answered 503 with a Chinese message,
// never 500 (issue 11 item 12). Drizzle wraps driver errors: the cause chain is searched.

const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now; class 08 connection exceptions */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|Cannot use a pool after calling end/i;

export const DB_UNAVAILABLE_MESSAGE = '数据库暂时无法连接，请稍后重试';

export function isDbUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NET_CODES.has(code) || PG_CODES.has(code)) return true;
    if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
    // an AggregateError (a host with IPv4 and IPv6 addresses, both refused)
    if (Array.isArray(e.errors) && e.errors.some((x) => isDbUnavailable(x))) return true;
  }
  return false;
}
