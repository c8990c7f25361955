import { ValidationError } from "../errors/domain-error.ts";

const MIN_LENGTH = 10;
// bcrypt reads only the first 72 bytes; a longer password would silently be a shorter one.
const MAX_BYTES = 72;

export function checkPasswordPolicy(password: string, path = "password"): void {
  if (password.length < MIN_LENGTH) {
    throw new ValidationError(`The password must be at least ${MIN_LENGTH} characters long.`, [
      { path, message: `at least ${MIN_LENGTH} characters` },
    ]);
  }
  if (Buffer.byteLength(password, "utf8") > MAX_BYTES) {
    throw new ValidationError(`The password must be at most ${MAX_BYTES} bytes long.`, [{ path, message: `at most ${MAX_BYTES} bytes` }]);
  }
}
