import { sql } from 'drizzle-orm';

// Array parameters as PostgreSQL array literals, built directly: node-postgres quotes and escapes
// every element of a JS array by concatenation, which for the large batches of settlement and reading
// ingest cost more than the statements they feed (and was the largest share of ingest's allocation).
// Cast the parameter in SQL: ${intArr(ids)}::bigint[], ${textArr(isos)}::timestamptz[].

/** A PostgreSQL array literal of integers (or null). */
export const intArr = (v: readonly (number | null)[]) => {
  let out = '{';
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (i) out += ',';
    if (x == null) out += 'NULL';
    else if (Number.isSafeInteger(x)) out += x;
    else throw new Error(`not an integer: ${x}`);
  }
  return sql.param(out + '}');
};

/** A PostgreSQL array literal of text elements (or null), each quoted; `\` and `"` escaped. */
export const textArr = (v: readonly (string | null)[]) => {
  let out = '{';
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (i) out += ',';
    if (x == null) out += 'NULL';
    else out += x.includes('\\') || x.includes('"') ? `"${x.replace(/[\\"]/g, '\\$&')}"` : `"${x}"`;
  }
  return sql.param(out + '}');
};
