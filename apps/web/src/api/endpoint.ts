// Calls a declared endpoint (packages/contracts/src/endpoints) through its generated reference
// (endpoints.gen.ts): the method and path come from the declaration, the input and the answer are typed
// by its schemas. Everything else — toasts, 401, duplicate guard, prefetch — is request.ts as always.
import { pathOf, type CallInput, type Endpoint, type ResultOf, type RouteRef } from '@meter/contracts';
import { download, request, type Paged, type Query, type RequestOptions } from './request.ts';

type Answer<E extends Endpoint> = E extends { paged?: true } ? Paged<ResultOf<E>> : ResultOf<E>;

/** `call(E.system.auditLog, { query: { index: 1, size: 20 } })` */
export function call<E extends Endpoint>(
  ref: RouteRef<E>,
  input: Partial<CallInput<E>> = {},
  opts: Omit<RequestOptions, 'params' | 'data'> = {},
): Promise<Answer<E>> {
  const params = input.params as Record<string, unknown> | undefined;
  return request<Answer<E>>(ref.method, pathOf(ref.path, params), {
    ...opts,
    params: input.query as Query | undefined,
    data: input.body,
  });
}

/** `fetchFile(E.owner.export, { query })`: a declared file answer (`file` in the declaration), saved under its name. */
export function fetchFile<E extends Endpoint>(ref: RouteRef<E>, input: Partial<CallInput<E>> = {}): Promise<string> {
  const params = input.params as Record<string, unknown> | undefined;
  return download(pathOf(ref.path, params), input.query as Query | undefined, ref.file);
}
