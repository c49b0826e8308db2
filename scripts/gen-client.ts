// Writes apps/web/src/api/endpoints.gen.json (the route table) and endpoints.gen.ts (its type) from the endpoint declarations (packages/contracts).
// Run after adding or changing a declaration: npm run gen:client (a test fails while the file is stale).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API, clientSource } from '@meter/contracts';

const dir = join(import.meta.dirname, '../apps/web/src/api');
const { json, ts } = clientSource(API);
writeFileSync(join(dir, 'endpoints.gen.json'), json);
writeFileSync(join(dir, 'endpoints.gen.ts'), ts);
console.log(`written ${dir}/endpoints.gen.{json,ts}`);
