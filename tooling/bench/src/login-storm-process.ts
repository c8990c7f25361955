// The login storm's own process; see startLoginStorm in login-storm.ts.
import { runLoginLoops } from "./login-storm.ts";

const { STORM_BASE, STORM_USERS, STORM_PASSWORD, STORM_LOOPS } = process.env;
const storm = runLoginLoops(STORM_BASE as string, (STORM_USERS as string).split(","), STORM_PASSWORD as string, Number(STORM_LOOPS));
process.on("message", async (message: string) => {
  if (message === "ok") process.send?.({ ok: storm.ok() });
  if (message === "stop") {
    await storm.stop();
    process.send?.({ ok: storm.ok(), codes: storm.codes() }, undefined, undefined, () => process.exit(0));
  }
});
process.send?.({ ok: 0 });
