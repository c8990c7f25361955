import { type Command, parseFlags } from "./command.ts";
import { DEMO_PROJECT } from "./demo-dataset.ts";

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
It prints the users it made, with where their password came from, each demo user's personal
access token and a frontend token for browsers. You give one password: on a terminal you are
asked for it twice (nothing is echoed); otherwise it is the first line of stdin:
  printf '%s\\n' 'demo-password' | vexil demo

The demo users get that password, and so does "admin": created with it when there are no users
yet (as \`vexil serve\` creates it on a first start), or given it while it still has the default
password "unleash4all"; an admin with a password of its own keeps it. When ADMIN_PASSWORD is set,
admin gets that instead. It refuses, changing nothing, when the project "${DEMO_PROJECT.id}" or
one of the demo users exists already. With the embedded database, stop the server first (one
process at a time).`,

  async run(args, terminal) {
    parseFlags(args, {});
    const { runDemo } = await import("./run-demo.ts");
    await runDemo(terminal);
  },
};
