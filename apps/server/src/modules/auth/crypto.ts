import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Passwords: argon2id, 19 MiB memory, 2 passes (OWASP minimum). Tokens: 256 random bits,
// only their SHA-256 is stored.
/** Algorithm.Argon2id is a const enum (not importable with isolatedModules): its value is 2. */
const ARGON = { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the user does not exist, so timing does not reveal usernames. */
let dummy: string | undefined;
export async function dummyVerify(password: string) {
  dummy ??= await hashPassword('dummy-password-for-timing');
  await verifyPassword(dummy, password);
}

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A readable random password for resets: 10 characters without look-alikes. */
export function randomPassword(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** A reset: a new random password (shown once) and the hash that is kept. */
export async function resetPasswordPair(): Promise<{ password: string; hash: string }> {
  const password = randomPassword();
  return { password, hash: await hashPassword(password) };
}
