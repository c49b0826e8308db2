// ESLint (flat config): typescript-eslint's recommended rules plus the architecture's boundaries.
// `npm run lint` runs it; scripts/test-all.sh runs it first. 0 violations is the bar.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/test/**', '**/*.test-util.ts', '**/testing/**', '**/testing.tsx', 'apps/server/test/**', 'e2e/**', 'bench/**'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'apps/web/dist/**', '**/*.d.ts', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `x as unknown as Y` hides a type mismatch instead of fixing it: typed helpers instead (tests may still fake things).
      'no-restricted-syntax': ['error', {
        selector: 'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
        message: '不要用 `as unknown as`：写一个有类型的辅助函数或修正类型。',
      }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The browser bundle never reaches into the server or the simulator.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@meter/server', '@meter/server/*', '@meter/simulator', '@meter/simulator/*'], message: 'apps/web 不能引用服务端或模拟器的代码' }] }] },
  },
  {
    files: TESTS,
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Architecture: who may import whom (docs/ARCHITECTURE.md, "Module map").
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'module', pattern: 'apps/server/src/modules/*', capture: ['name'] },
        { type: 'db', pattern: 'apps/server/src/db' },
        { type: 'http', pattern: 'apps/server/src/http' },
        { type: 'demo', pattern: 'apps/server/src/demo' },
        { type: 'gateway', pattern: 'apps/server/src/gateway' },
        { type: 'jobs', pattern: 'apps/server/src/jobs' },
        { type: 'server', pattern: 'apps/server' },
        { type: 'web', pattern: 'apps/web' },
        { type: 'simulator', pattern: 'apps/simulator' },
        { type: 'package', pattern: 'packages/*', capture: ['name'] },
      ],
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'allow',
        policies: [
          {
            // A module is used through its public index.ts only (its own files excepted; tests may reach inside).
            disallow: {
              to: { element: { type: 'module', fileInternalPath: '!index.ts' } },
            },
            message: '模块之间只能通过 index.ts 引用 (modules/{{to.element.captured.name}}/index.ts)',
          },
          {
            from: { element: { types: ['db', 'http'] } },
            disallow: { to: { element: { type: 'module' } } },
            message: 'db/ 与 http/ 位于模块之下，不能引用任何模块',
          },
          {
            from: { element: { type: 'web' } },
            disallow: { to: { element: { types: ['server', 'module', 'db', 'http', 'demo', 'gateway', 'jobs', 'simulator'] } } },
            message: 'apps/web 不能引用 apps/server 的代码',
          },
          {
            from: { element: { type: 'package' } },
            disallow: { to: { element: { types: ['server', 'module', 'db', 'http', 'demo', 'gateway', 'jobs', 'web', 'simulator'] } } },
            message: 'packages/* 不能引用应用代码',
          },
        ],
      }],
    },
  },
);
