import type { Logger } from "@vexil/api";
import { checkPasswordPolicy, DEFAULT_ADMIN_PASSWORD, replaceDefaultAdminPassword } from "@vexil/services";
import { type AdminPassword, bootstrap, configuredAdminPassword } from "../bootstrap.ts";
import { loadConfig } from "../config.ts";
import { DEMO_PROJECT, DEMO_USERS } from "./demo-dataset.ts";
import { loadDemo } from "./load-demo.ts";
import { openMigratedDatabase } from "./open-database.ts";
import { commandPasswordHasher } from "./password-hasher.ts";
import { readPassword } from "./read-password.ts";
import type { Terminal } from "./terminal.ts";

/** The first-start messages, as progress lines rather than log records. */
function progressLogger(terminal: Terminal): Logger {
  const log: Logger = {
    info: (_, msg) => msg && terminal.progress(msg),
    warn: (_, msg) => msg && terminal.progress(`warning: ${msg}`),
    error: (_, msg) => msg && terminal.progress(`error: ${msg}`),
    child: () => log,
  };
  return log;
}

const GIVEN = "the password you gave";

const listed = (names: string[]) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** `vexil demo`, its flags parsed. */
export async function runDemo(terminal: Terminal): Promise<void> {
  const config = loadConfig(terminal.env);
  // ADMIN_PASSWORD, when set, is the operator's word on admin's password; else admin shares the demo's.
  const adminFromConfig = config.ADMIN_PASSWORD !== DEFAULT_ADMIN_PASSWORD;
  const demoNames = DEMO_USERS.map((u) => u.username);
  const password = await readPassword(terminal, `Password for the users ${listed(adminFromConfig ? demoNames : ["admin", ...demoNames])}`);
  // Refused before anything is stored, so that admin is not made with a password the demo users cannot have.
  checkPasswordPolicy(password);
  const admin: AdminPassword = adminFromConfig ? configuredAdminPassword(config) : { password, from: GIVEN };

  const db = await openMigratedDatabase(config, terminal);
  const hasher = commandPasswordHasher(config);
  try {
    const { adminCreated } = await bootstrap({ deps: { db: db.kysely, hasher, log: progressLogger(terminal) } }, config, admin);
    const loaded = await loadDemo(db.kysely, hasher, password, terminal.progress);
    const adminNow = adminCreated ? "created" : await replaceDefaultAdminPassword(db.kysely, hasher, admin.password);

    terminal.print(`Loaded the demo project "${DEMO_PROJECT.id}".`);
    terminal.print("");
    terminal.print("Users:");
    const adminLine = {
      created: `created now, with ${admin.from}`,
      replaced: `existed with the default password "${DEFAULT_ADMIN_PASSWORD}"; it now has ${admin.from}`,
      kept: "existed already, with a password of its own, which it keeps",
      missing: undefined,
    }[adminNow];
    if (adminLine) terminal.print(`  ${"admin".padEnd(6)} Admin   ${adminLine}`);
    for (const user of loaded.users) terminal.print(`  ${user.username.padEnd(6)} ${user.role.padEnd(7)} created now, with ${GIVEN}`);
    terminal.print("");
    terminal.print("Personal access tokens of the demo users, shown only now:");
    for (const user of loaded.users) terminal.print(`  ${user.username.padEnd(6)} ${user.token}`);
    terminal.print("");
    terminal.print(
      `Frontend token for browsers (unleash-proxy-client, url <server>/api/frontend; list the page's origin in CORS_ORIGINS):`,
    );
    terminal.print(`  ${loaded.frontendToken}`);
    terminal.print("");
    terminal.print("Change requests:");
    for (const cr of loaded.changeRequests) {
      terminal.print(`  #${cr.id}  ${cr.environment.padEnd(10)} ${cr.feature.padEnd(15)} by ${cr.author.padEnd(6)} ${cr.state}`);
    }
  } finally {
    await hasher.close();
    await db.close();
  }
}
