import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP parameters (memory 19 MiB, 2 iterations, parallelism 1); argon2id is the library's default algorithm. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Unknown users and invited users with no password cost the same time as a wrong password.
  const target = passwordHash ?? DUMMY_HASH;
  try {
    const ok = await verify(target, password);
    return ok && passwordHash !== null;
  } catch {
    return false;
  }
}

const DUMMY_HASH = await hash('not-a-real-password-for-timing', OPTIONS);
