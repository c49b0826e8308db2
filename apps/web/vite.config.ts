import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './src/build/precompress.ts';
import { lazyProFields, LAZY_FIELDS } from './src/build/lazyProFields.ts';

const SERVER = process.env.METER_SERVER_URL ?? 'http://localhost:8080';
/** Every API prefix of SPEC §7 plus the websocket and health check goes to the server in dev. */
const PROXIED = ['/yonghu', '/yewu', '/device', '/pay', '/wxpay', '/alipay', '/sms', '/export', '/healthz'];

const proxy: Record<string, object> = Object.fromEntries(
  PROXIED.map((p) => [p, { target: SERVER, changeOrigin: true }]),
);
proxy['/ws'] = { target: SERVER.replace(/^http/, 'ws'), ws: true, changeOrigin: true };

/** Vendor groups: React core is shared by every page; pro-components and echarts only load with the
 * pages that use them (they are never imported from the entry). antd is left to automatic splitting
 * so that the first load carries only the antd components the shell needs. */
const LAZY_FIELD_MODULE = new RegExp(`[\\\\/]@ant-design[\\\\/]pro-field[\\\\/]es[\\\\/]components[\\\\/](${LAZY_FIELDS.join('|')})[\\\\/]`);
function vendorGroup(id: string): string | null {
  if (!id.includes('node_modules')) return null;
  if (/node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/.test(id)) return 'react';
  // echarts draws /screen only (/home's trend is SVG, pages/fee/TrendChart.tsx); its bar, gauge and pie
  // charts a chunk of their own
  if (/node_modules[\\/]echarts[\\/]lib[\\/]chart[\\/](bar|gauge|pie)[\\/]/.test(id)) return 'echarts-screen';
  if (/node_modules[\\/](echarts|zrender|echarts-for-react)[\\/]/.test(id)) return 'echarts';
  // the value-type renderers no page uses load on their own, if ever (src/build/lazyProFields.ts)
  if (LAZY_FIELD_MODULE.test(id)) return null;
  if (/node_modules[\\/]@ant-design[\\/]pro-/.test(id)) return 'pro-components';
  return null;
}

export default defineConfig({
  plugins: [lazyProFields(), react(), precompress()],
  server: { port: 5173, proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: lets bench/web-bundle.ts follow the lazy route chunks
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // @meter/contracts is declarations only (routes, permissions, zod schemas, money helpers): treat its
      // modules as side-effect free, so a page importing ROUTES through the barrel does not drag the zod
      // schemas and decimal.js of unrelated modules into the first load
      treeshake: {
        moduleSideEffects: (id: string) => (/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id) ? false : undefined),
      },
      output: {
        strictExecutionOrder: true,
        codeSplitting: {
          // capture only the matched modules: their antd dependencies stay shared with the shell
          includeDependenciesRecursively: false,
          groups: [
            { name: (id: string) => vendorGroup(id), debugName: 'vendor' },
          ],
        },
      },
    },
  },
});
