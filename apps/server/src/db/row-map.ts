// Raw SQL rows (snake_case columns, values as pg hands them) to typed objects: one mapper per row kind,
// declared once as { camelName: kind }; the column is the name in snake_case.

export type ColumnKind = 'number' | 'string' | 'date';
type Value<K extends ColumnKind> = K extends 'number' ? number : K extends 'string' ? string : Date;
export type MappedRow<S extends Record<string, ColumnKind>> = { [K in keyof S]: Value<S[K]> };

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const convert = (kind: ColumnKind, v: unknown) => (kind === 'number' ? Number(v) : kind === 'string' ? String(v) : new Date(v as string));

/** A mapper of raw rows: Number(x.col), String(x.col) or new Date(x.col) for each declared field. */
export function rowMapper<S extends Record<string, ColumnKind>>(spec: S): (x: Record<string, unknown>) => MappedRow<S> {
  const columns = Object.entries(spec).map(([name, kind]) => [name, snake(name), kind] as const);
  return (x) => Object.fromEntries(columns.map(([name, column, kind]) => [name, convert(kind, x[column])])) as MappedRow<S>;
}
