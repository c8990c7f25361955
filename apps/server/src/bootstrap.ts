import type { ApiDeps } from "@vexil/api";
import { DEFAULT_ADMIN_PASSWORD, ensureAdminUser, ensureInitialAdminTokens } from "@vexil/services";
import type { Config } from "./config.ts";

/** What a first start needs: an `admin` to log in as, and the configured admin tokens. */
export async function bootstrap(
  app: { deps: Pick<ApiDeps, "db" | "hasher" | "log"> },
  config: Pick<Config, "ADMIN_PASSWORD" | "INIT_ADMIN_API_TOKENS">,
): Promise<void> {
  const { db, hasher, log } = app.deps;
  if (await ensureAdminUser(db, hasher, config.ADMIN_PASSWORD)) {
    log.info({ username: "admin" }, 'created user "admin" with the password from ADMIN_PASSWORD');
  }
  if (config.ADMIN_PASSWORD === DEFAULT_ADMIN_PASSWORD) {
    log.warn({}, 'ADMIN_PASSWORD is the default "unleash4all": its first login may only change it; set another or change it then');
  }
  const created = await ensureInitialAdminTokens(db, config.INIT_ADMIN_API_TOKENS);
  if (created) log.info({ created }, "created admin tokens from INIT_ADMIN_API_TOKENS");
}
