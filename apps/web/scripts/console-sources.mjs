// What the console is built from, so that a build whose sources are unchanged is skipped: by this
// package's build, which `turbo run build` and the tests run, and by `pnpm start`
// (apps/server/scripts/build.mjs), which then needs neither turbo nor Vite.
import { fileURLToPath } from "node:url";
import { isBuilt, recordBuilt, sourcesHash } from "@vexil/build-stamp";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
// Inside dist/, which Vite empties first: a build cut short leaves no stamp, so the next one runs.
const stamp = `${dist}.sources-sha256`;

// The client's generated files (packages/client/scripts/build.ts) count as they are: the console
// bundles only its root roles, Unleash's fixed numbering, which every turbo build rewrites.
const INPUTS = [
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "apps/web/tsconfig.json",
  "apps/web/package.json",
  "apps/web/scripts",
  "apps/web/src",
  "packages/client/package.json",
  "packages/client/src",
  "tooling/typescript",
  "pnpm-lock.yaml",
];

/** The console's sources now, whether dist/ was built from them, and how to record that it was. */
export function consoleSources() {
  const hash = sourcesHash(repo, INPUTS);
  return {
    built: isBuilt(stamp, hash, [`${dist}index.html`]),
    recordBuilt: () => recordBuilt(stamp, hash),
  };
}
