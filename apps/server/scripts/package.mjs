// Packs the server into one installable npm package, `vexil` (docs/operations.md#the-installable-package):
// the bundle of scripts/build.mjs (Vexil's own code and its migrations, which are compiled in), the
// `vexil` command, the console's built files and a package.json whose dependencies are the
// third-party packages the bundle imports, at the versions this repository pins. Then
// `npm install -g ./vexil-<version>.tgz` and `vexil serve` run it with no clone.
//
// Usage: node scripts/package.mjs [--out <dir>]   (default: the repository's root)
// The console must have been built (`pnpm turbo run build --filter=@vexil/server` builds both;
// `pnpm run package` at the root does it first). Prints the tarball's path on stdout.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const serverDir = fileURLToPath(new URL("../", import.meta.url));
const repoDir = fileURLToPath(new URL("../../../", import.meta.url));
const consoleDir = fileURLToPath(new URL("../../web/dist/", import.meta.url));

const args = process.argv.slice(2);
const outFlag = args.indexOf("--out");
const outDir = resolve(outFlag >= 0 && args[outFlag + 1] ? args[outFlag + 1] : repoDir);

if (!existsSync(join(consoleDir, "index.html"))) {
  process.stderr.write("the console is not built: run `pnpm turbo run build --filter=@vexil/server` (or `pnpm run package` at the root)\n");
  process.exit(1);
}
execFileSync(process.execPath, [join(serverDir, "scripts/build.mjs")], { stdio: ["ignore", "inherit", "inherit"] });

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const server = readJson(join(serverDir, "package.json"));
const root = readJson(join(repoDir, "package.json"));

// The installed version of each third-party dependency (the catalog pins exact versions). Read
// from apps/server/node_modules by path: some packages' `exports` do not expose package.json.
const dependencies = {};
for (const name of Object.keys(server.dependencies).sort()) {
  if (name.startsWith("@vexil/")) continue;
  dependencies[name] = readJson(join(serverDir, "node_modules", name, "package.json")).version;
}

const stage = mkdtempSync(join(tmpdir(), "vexil-package-"));
try {
  const pkg = join(stage, "vexil");
  mkdirSync(pkg);
  // Without the hashes of the sources that build.mjs keeps beside what it built: no sources ship.
  const built = (path) => !path.endsWith(".sources-sha256");
  cpSync(join(serverDir, "dist"), join(pkg, "dist"), { recursive: true, filter: built });
  mkdirSync(join(pkg, "bin"));
  cpSync(join(serverDir, "bin/vexil.mjs"), join(pkg, "bin/vexil.mjs"));
  // console-app.ts looks for the console in console/ beside dist/ before the repository's apps/web/dist.
  cpSync(consoleDir, join(pkg, "console"), { recursive: true, filter: built });
  cpSync(join(repoDir, "README.md"), join(pkg, "README.md"));
  writeFileSync(
    join(pkg, "package.json"),
    `${JSON.stringify(
      {
        name: "vexil",
        version: server.version,
        description: root.description,
        type: "module",
        bin: { vexil: "bin/vexil.mjs" },
        files: ["bin", "dist", "console", "README.md"],
        engines: root.engines,
        dependencies,
      },
      null,
      2,
    )}\n`,
  );
  mkdirSync(outDir, { recursive: true });
  const packed = JSON.parse(
    execFileSync("npm", ["pack", pkg, "--json", "--pack-destination", outDir, "--loglevel=error"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  process.stdout.write(`${join(outDir, packed[0].filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
