import { SUCCESS } from '@meter/contracts';

/** A page of rows: answered as {code, message, data: rows, count}. */
export class Page<T> {
  constructor(
    public readonly rows: T[],
    public readonly count: number,
  ) {}
}

export function envelope(result: unknown) {
  if (result instanceof Page) return { code: SUCCESS, message: '', data: result.rows, count: result.count };
  return { code: SUCCESS, message: '', data: result ?? null };
}
