import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import type { PasswordHasher } from "../../src/index.ts";

const derive = promisify(scrypt) as (password: string, salt: string, length: number) => Promise<Buffer>;

/**
 * A real PasswordHasher on node:crypto's scrypt: services take the interface, and bcrypt's
 * workers are tested in their own package, so services' tests need no dependency on it.
 */
export function scryptHasher(): PasswordHasher {
  const hash = async (password: string) => {
    const salt = randomBytes(8).toString("hex");
    return `scrypt$${salt}$${(await derive(password, salt, 32)).toString("hex")}`;
  };
  return {
    hash,
    async verify(password, stored) {
      const [kind, salt, expected] = stored.split("$");
      if (kind !== "scrypt" || !salt || !expected) return false;
      return timingSafeEqual(await derive(password, salt, 32), Buffer.from(expected, "hex"));
    },
    dummyHash: () => hash(randomBytes(16).toString("hex")),
    close: async () => {},
  };
}
