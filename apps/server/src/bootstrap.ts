import type { ApiDeps } from "@vexil/api";
import { adminPassword, DEFAULT_ADMIN_PASSWORD, ensureAdminUser, ensureInitialAdminTokens } from "@vexil/services";
import type { Config } from "./config.ts";

/** The password a first start gives `admin`, and where it came from, as the log names it. */
export interface AdminPassword {
  password: string;
  from: string;
}

/** `serve`'s: ADMIN_PASSWORD, whose default is Unleash's `unleash4all`. */
export function configuredAdminPassword(config: Pick<Config, "ADMIN_PASSWORD">): AdminPassword {
  return config.ADMIN_PASSWORD === DEFAULT_ADMIN_PASSWORD
    ? { password: DEFAULT_ADMIN_PASSWORD, from: `the default password "${DEFAULT_ADMIN_PASSWORD}"` }
    : { password: config.ADMIN_PASSWORD, from: "the password from ADMIN_PASSWORD" };
}

/** What a first start needs: an `admin` to log in as, and the configured admin tokens. */
export async function bootstrap(
  app: { deps: Pick<ApiDeps, "db" | "hasher" | "log"> },
  config: Pick<Config, "ADMIN_PASSWORD" | "INIT_ADMIN_API_TOKENS">,
  admin: AdminPassword = configuredAdminPassword(config),
): Promise<{ adminCreated: boolean }> {
  const { db, hasher, log } = app.deps;
  const adminCreated = await ensureAdminUser(db, hasher, admin.password);
  if (adminCreated) log.info({ username: "admin" }, `created user "admin" with ${admin.from}`);
  // Only while admin has it: `vexil demo` or a first login may have given admin another since.
  if (admin.password === DEFAULT_ADMIN_PASSWORD && (adminCreated || (await adminPassword(db, hasher)) === "default")) {
    log.warn({}, 'ADMIN_PASSWORD is the default "unleash4all": its first login may only change it; set another or change it then');
  }
  const created = await ensureInitialAdminTokens(db, config.INIT_ADMIN_API_TOKENS);
  if (created) log.info({ created }, "created admin tokens from INIT_ADMIN_API_TOKENS");
  return { adminCreated };
}
