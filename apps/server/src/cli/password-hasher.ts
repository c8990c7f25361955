import { createPasswordHasher } from "@vexil/password-hasher";
import type { PasswordHasher } from "@vexil/services";
import type { Config } from "../config.ts";

/** A command hashes a few passwords: one worker is plenty, with the server's bcrypt cost. */
export function commandPasswordHasher(config: Config): PasswordHasher {
  return createPasswordHasher({ workers: 1, cost: config.BCRYPT_COST });
}
