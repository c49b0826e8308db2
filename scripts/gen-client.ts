// Writes apps/web/src/api/endpoints.gen.ts from the endpoint declarations (packages/contracts).
// Run after adding or changing a declaration: npm run gen:client (a test fails while the file is stale).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API, clientSource } from '@meter/contracts';

const file = join(import.meta.dirname, '../apps/web/src/api/endpoints.gen.ts');
writeFileSync(file, clientSource(API));
console.log(`written ${file}`);
