import { sql } from 'drizzle-orm';

// Array parameters as PostgreSQL array literals, built directly: node-postgres quotes and escapes
// every element of a JS array by concatenation, which for the large batches of settlement and reading
// ingest cost more than the statements they feed (and was the largest share of ingest's allocation).
// Cast the parameter in SQL: ${intArr(ids)}::bigint[], ${textArr(isos)}::timestamptz[].

/** `{a,b,NULL,…}`: each element as `element` writes it, null as NULL. */
function literal<T>(v: readonly (T | null)[], element: (x: T) => string) {
  let out = '{';
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (i) out += ',';
    out += x == null ? 'NULL' : element(x);
  }
  return sql.param(out + '}');
}

const integer = (x: number) => {
  if (!Number.isSafeInteger(x)) throw new Error(`not an integer: ${x}`);
  return String(x);
};
const quoted = (x: string) => (x.includes('\\') || x.includes('"') ? `"${x.replace(/[\\"]/g, '\\$&')}"` : `"${x}"`);

/** A PostgreSQL array literal of integers (or null). */
export const intArr = (v: readonly (number | null)[]) => literal(v, integer);

/** A PostgreSQL array literal of text elements (or null), each quoted; `\` and `"` escaped. */
export const textArr = (v: readonly (string | null)[]) => literal(v, quoted);
