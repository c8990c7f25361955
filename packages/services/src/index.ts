export * from "./errors/domain-error.ts";
export * from "./auth/permissions.ts";
export * from "./auth/principal.ts";
export { appendEvent, type NewEvent } from "./events/append-event.ts";
export { listEnvironments, type Environment } from "./environments/list-environments.ts";
export { createPasswordHasher, type PasswordHasher, type PasswordHasherOptions } from "./auth/password-hasher.ts";
export {
  createSession,
  DEFAULT_SESSION_POLICY,
  deleteExpiredSessions,
  endSession,
  findSessionPrincipal,
  type SessionPolicy,
} from "./auth/sessions.ts";
export {
  type ApiToken,
  type ApiTokenType,
  createApiToken,
  createPersonalToken,
  deleteApiToken,
  ensureInitialAdminTokens,
  findTokenPrincipal,
  listApiTokens,
  type NewApiToken,
} from "./auth/api-tokens.ts";
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./auth/login-throttle.ts";
export { login, type LoginAttempt, type LoginPolicy } from "./auth/login.ts";
export { toUser, type User } from "./users/user.ts";
export { createUser, type NewUser } from "./users/create-user.ts";
export { listUsers } from "./users/list-users.ts";
export { changePassword } from "./users/change-password.ts";
export { deleteUser } from "./users/delete-user.ts";
export { ensureAdminUser } from "./users/ensure-admin-user.ts";
