export { createPasswordHasher } from "./password-hasher.ts";
