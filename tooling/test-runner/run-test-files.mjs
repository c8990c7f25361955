#!/usr/bin/env node
// Runs each `*.test.ts` file of a directory (default `test`) in a process of its own, one after
// another, and exits 1 when any of them failed.
//
// uvu's own CLI imports every file into one process before it runs a test, so the top-level
// setup of all files (databases, servers, pools, LISTEN connections) is alive at once; with a
// package of some forty server test files that alone passes Postgres's default limit of 100
// connections. One process per file also gives each file a clean heap and its own exit.
// Each file prints uvu's summary (Total, Passed, Skipped), which CI sums.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "test";
const only = process.argv[3] ? new RegExp(process.argv[3]) : undefined;
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".test.ts") && (!only || only.test(name)))
  .sort();

if (files.length === 0) {
  console.error(`no test file in ${dir}${only ? ` matching ${only}` : ""}`);
  process.exit(1);
}

const failed = [];
for (const file of files) {
  console.log(`\n${file}`);
  const { status, signal } = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: "inherit" });
  if (status !== 0) failed.push(signal ? `${file} (${signal})` : file);
}

if (failed.length > 0) {
  console.log(`\nfailed or crashed: ${failed.join(", ")}`);
  process.exit(1);
}
