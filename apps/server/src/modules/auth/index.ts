// Public face of the auth module: other modules and the layers above import from here only (eslint boundaries).
export { default as authRoutes } from './routes.ts';
export { authenticate, authSettings, type AuthSettings } from './service.ts';
export { SessionCache } from './session-cache.ts';
export { dummyVerify, hashPassword, hashToken, newToken, randomPassword, resetPasswordPair, verifyPassword } from './crypto.ts';
export { limiter as rateLimiter, loginLimits } from './limits.ts';
export { revokeUserSessions } from './repo.ts';
