// The compiled server (dist/) finds its non-TypeScript files beside it, as the sources do: the SQL
// migrations (db/migrations, read through import.meta.dirname) and the demo's tutorial files (demo/assets).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const assets = ['db/migrations', 'demo/assets'];
for (const a of assets) {
  const to = path.join(root, 'dist', a);
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'src', a), to, { recursive: true });
}
