// A build step is skipped while its inputs are unchanged: the sha256 of every input file (its path
// and its bytes) is written beside the step's output when the step succeeds, and compared the next
// time. Contents, not modification times, so that a checkout or a copy that keeps every byte (and
// a touch) rebuilds nothing, and an edit that keeps the size and time still rebuilds.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Folders never read as inputs: installed packages and build outputs. */
const SKIPPED = new Set(["node_modules", "dist", ".turbo"]);

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() && SKIPPED.has(entry.name) ? [] : filesUnder(join(path, entry.name)),
  );
}

/**
 * The sha256 of the files at `inputs` (files or folders, relative to `root`, read recursively).
 * A missing input counts as empty.
 */
export function sourcesHash(root, inputs) {
  const hash = createHash("sha256");
  const files = inputs
    .flatMap((input) => filesUnder(join(root, input)))
    .map((file) => relative(root, file).split(sep).join("/"))
    .sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

/** True when `stampFile` holds `hash` and each of `outputs` exists: what was built is of these sources. */
export function isBuilt(stampFile, hash, outputs) {
  if (!outputs.every((output) => existsSync(output))) return false;
  return existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === hash;
}

/** Records that the outputs beside `stampFile` were built from the sources of `hash` (renamed into place, never half-written). */
export function recordBuilt(stampFile, hash) {
  writeFileSync(`${stampFile}.${process.pid}`, `${hash}\n`);
  renameSync(`${stampFile}.${process.pid}`, stampFile);
}
