// The billing pages' tests use the shared page-test harness (apps/web/src/test/harness.tsx).
export { mockServer, ok, renderPage, signIn, type Answer, type Call, type Handler } from '../../test/harness.tsx';
