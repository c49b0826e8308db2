import { describe, expect, it } from 'vitest';
import { lazyProFields } from './lazyProFields.ts';

const INDEX = '/r/node_modules/@ant-design/pro-field/es/index.js';
type Hook = (this: unknown, source: string, importer?: string) => Promise<string | null>;

function plugin() {
  const p = lazyProFields();
  const ctx = { resolve: async (source: string) => ({ id: `/r/node_modules/@ant-design/pro-field/es/${source.slice(2)}/index.js` }) };
  const resolveId = (source: string, importer?: string) => (p.resolveId as unknown as Hook).call(ctx, source, importer);
  const load = (id: string) => (p.load as unknown as (id: string) => string | null)(id);
  return { resolveId, load };
}

describe('lazyProFields', () => {
  it('turns the unused value-type renderers imported by pro-field into lazy components with their own Suspense', async () => {
    const { resolveId, load } = plugin();
    const id = await resolveId('./components/ColorPicker', INDEX);
    expect(id).toBe('\0lazy-pro-field:/r/node_modules/@ant-design/pro-field/es/components/ColorPicker/index.js');
    const code = load(id!)!;
    expect(code).toContain('lazy(() => import("/r/node_modules/@ant-design/pro-field/es/components/ColorPicker/index.js"))');
    expect(code).toContain('Suspense');
    expect(code).toContain('export default');
  });

  it('leaves the renderers the app uses, and every other importer, alone', async () => {
    const { resolveId, load } = plugin();
    for (const used of ['DatePicker', 'Select', 'Digit', 'TreeSelect', 'Text', 'Switch']) {
      expect(await resolveId(`./components/${used}`, INDEX)).toBeNull();
    }
    expect(await resolveId('./components/ColorPicker', '/r/node_modules/@ant-design/pro-form/es/index.js')).toBeNull();
    expect(await resolveId('./components/ColorPicker', undefined)).toBeNull();
    expect(load('/r/src/main.tsx')).toBeNull();
  });
});
