export { createPasswordHasher, type PasswordHasherOptions } from "./password-hasher.ts";
