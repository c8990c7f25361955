import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));
let built = false;

/**
 * Builds dist/ as `pnpm start` does, once per test process, so that tests of the built server and
 * of the `vexil` bin run the sources as they are now, also when one test file runs alone.
 */
export function buildServer(): void {
  if (built) return;
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: SERVER_DIR, stdio: ["ignore", "inherit", "inherit"] });
  built = true;
}
