import type { Logger } from "@vexil/api";
import { bootstrap } from "../bootstrap.ts";
import { loadConfig } from "../config.ts";
import { type Command, parseFlags } from "./command.ts";
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

export const demo: Command = {
  words: ["demo"],
  summary: 'load the "demo" project: features, variants, users and change requests in every state',
  help: `Usage: vexil demo

Loads a demo project, "${DEMO_PROJECT.id}", so that every operation has something to show:
  - environments development, staging and production (staging is created when missing);
  - features checkout-flow, search-ranking (with variants) and dark-mode (without);
  - change requests on in staging (1 approval) and production (2 approvals);
  - the Editors alice, bob and carol, and change requests that they proposed, approved,
    rejected, cancelled, scheduled and applied: alice has 3 pending (In review, Approved,
    Scheduled), bob has 1 (Draft).
It prints each demo user's personal access token and a frontend token for browsers. The demo
users share one password: on a terminal you are asked for it twice (nothing is echoed); otherwise
it is the first line of stdin:
  printf '%s\\n' 'demo-password' | vexil demo

Like \`vexil serve\` on a first start, it creates the "admin" user (password ADMIN_PASSWORD)
when there are no users yet. It refuses, changing nothing, when the project "${DEMO_PROJECT.id}"
or one of the demo users exists already. With the embedded database, stop the server first
(one process at a time).`,

  async run(args, terminal) {
    parseFlags(args, {});
    const config = loadConfig(terminal.env);
    const password = await readPassword(terminal, `Password for the demo users ${DEMO_USERS.map((u) => u.username).join(", ")}`);

    const db = await openMigratedDatabase(config, terminal);
    const hasher = commandPasswordHasher(config);
    try {
      await bootstrap({ deps: { db: db.kysely, hasher, log: progressLogger(terminal) } }, config);
      const loaded = await loadDemo(db.kysely, hasher, password, terminal.progress);
      terminal.print(`Loaded the demo project "${DEMO_PROJECT.id}".`);
      terminal.print("");
      terminal.print("Demo users (Editors; the password is the one you gave) and their personal access tokens, shown only now:");
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
  },
};
