#!/usr/bin/env node
// Vexil's command line, as built into dist/ by scripts/build.mjs (`pnpm vexil` builds first), so
// that it and `vexil serve` run as plain JavaScript.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/vexil.mjs", import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write("vexil is not built: run `pnpm --filter @vexil/server build` (or `pnpm vexil`, which builds first)\n");
  process.exit(1);
}
await import(bundle.href);
