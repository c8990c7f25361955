/** The indexes that keep usernames unique: exactly, and whatever their case. */
export const USERNAME_INDEXES = ["users_username_key", "users_username_lower_key"];

/** True for Postgres' unique_violation (23505), optionally on one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return !!e && e.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
