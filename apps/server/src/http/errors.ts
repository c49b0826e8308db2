// Every error the API answers is {code, message} with a Chinese message (DESIGN §4).
// A refused business rule is HTTP 200 with a code other than SUCCESS.

export class AppError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly status = 200,
  ) {
    super(message);
  }
}

/** A business rule refused the request (HTTP 200, code ≠ SUCCESS). */
export const refuse = (code: string, message: string) => new AppError(code, message, 200);
export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(code, message, 400);
export const unauthorized = (message = '登录状态过期，请重新登录') => new AppError('UNAUTHORIZED', message, 401);
export const forbidden = (message = '无权限执行此操作') => new AppError('FORBIDDEN', message, 403);
export const notFound = (what = '记录') => new AppError('NOT_FOUND', `${what}不存在或无权查看`, 404);
/** A record a repository found, or NOT_FOUND when there is none (or the caller's scope hides it). */
export function found<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw notFound(what);
  return v;
}
export const conflict = (message: string) => new AppError('CONFLICT', message, 409);
