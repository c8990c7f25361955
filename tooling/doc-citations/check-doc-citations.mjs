#!/usr/bin/env node
// Every comment that cites `docs/<file>.md#<anchor>` must name a file of docs/ and one of its
// headings (as GitHub makes anchors of them), and nothing may cite the specification files that
// live outside the repository: a renamed heading then fails CI instead of leaving a dead reference.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx", "*.mjs", "*.js"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file && !file.startsWith("tooling/doc-citations/") && existsSync(join(root, file)));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorsOf = new Map();
function anchors(doc) {
  if (!anchorsOf.has(doc)) {
    const path = join(root, doc);
    const text = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    anchorsOf.set(doc, text === undefined ? undefined : new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]))));
  }
  return anchorsOf.get(doc);
}

const problems = [];
let citations = 0;
for (const file of files) {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (/\b(admin-api|client-api|contract)\.md\b|\b([Cc]ontract|client-api|admin-api) [0-9]/.test(line))
      problems.push(`${where}: cites a specification file outside the repository`);
    for (const [, doc, anchor] of line.matchAll(/\b(docs\/[\w-]+\.md)(?:#([\w-]+))?/g)) {
      citations++;
      const known = anchors(doc);
      if (!known) problems.push(`${where}: ${doc} does not exist`);
      else if (anchor && !known.has(anchor)) problems.push(`${where}: ${doc} has no heading #${anchor}`);
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`${problems.length} broken documentation citation(s)`);
  process.exit(1);
}
console.log(`${citations} documentation citations resolve`);
