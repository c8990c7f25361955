#!/usr/bin/env node
// Runs each `*.test.ts` file of a directory (default `test`) in a process of its own, a few at a
// time, and exits 1 when any of them failed.
//
// uvu's own CLI imports every file into one process before it runs a test, so the top-level
// setup of all files (databases, servers, pools, LISTEN connections) is alive at once; with a
// package of some forty server test files that alone passes Postgres's default limit of 100
// connections. One process per file also gives each file a clean heap and its own exit.
// Files run side by side, as many as the machine has cores (VEXIL_TEST_JOBS sets another number):
// most of a file's time is starting Node, tsx and its databases, and waiting on its servers.
// Each file's output is held until it ends and printed whole, with uvu's summary (Total, Passed,
// Skipped), which CI sums.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

const dir = process.argv[2] ?? "test";
const only = process.argv[3] ? new RegExp(process.argv[3]) : undefined;
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".test.ts") && (!only || only.test(name)))
  .sort();

if (files.length === 0) {
  console.error(`no test file in ${dir}${only ? ` matching ${only}` : ""}`);
  process.exit(1);
}

const jobs = Math.max(1, Number(process.env.VEXIL_TEST_JOBS) || availableParallelism());

/** Runs one file; resolves to its failure ("name" or "name (signal)") or undefined. */
function runFile(file) {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks = [];
    // FORCE_COLOR keeps uvu's colours, which it drops when its output is not a terminal.
    const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env;
    const child = spawn(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: ["ignore", "pipe", "pipe"], env });
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("close", (status, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const output = Buffer.concat(chunks).toString();
      process.stdout.write(`\n${file} (${seconds} s)\n${output}`);
      if (status !== 0) return resolve(signal ? `${file} (${signal})` : file);
      // uvu ends a file with status 0 and no failure line when a test throws what its reporter cannot print: tests that did not pass are failures.
      const plain = stripVTControlCharacters(output);
      const sum = (name) => [...plain.matchAll(new RegExp(`^\\s*${name}:\\s+(\\d+)\\s*$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
      const missing = sum("Total") - sum("Passed") - sum("Skipped");
      resolve(missing > 0 ? `${file} (${missing} not passed)` : undefined);
    });
  });
}

const failed = [];
const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(jobs, files.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const failure = await runFile(file);
      if (failure) failed.push(failure);
    }
  }),
);

if (failed.length > 0) {
  console.log(`\nfailed or crashed: ${failed.sort().join(", ")}`);
  process.exit(1);
}
