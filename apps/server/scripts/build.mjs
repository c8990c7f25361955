// Bundles the server and the `vexil` command into dist/ as plain JavaScript, so that production
// runs without the TypeScript loader (tsx alone holds about 40 MB of memory in every process and
// thread). Vexil's own packages are bundled; third-party packages stay external and are loaded
// from node_modules as they are, which keeps native code (bcrypt), wasm (PGlite) and pino's
// transport threads working. Run by `pnpm start`, `pnpm vexil` and the tests before they need it.
//
// The built console and bundle are reused while their sources are unchanged (a hash of them is
// kept beside each), so that a second `pnpm start` starts at once. `--console` first builds the
// console (apps/web) when its sources changed, as `pnpm start` needs it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { isBuilt, sourcesHash } from "@vexil/build-stamp";
import { consoleSources } from "../../web/scripts/console-sources.mjs";

const root = new URL("../", import.meta.url);
const dist = new URL("dist/", root);
const repo = fileURLToPath(new URL("../../", root));

if (process.argv.includes("--console")) {
  if (consoleSources().built) {
    process.stderr.write("The built console is reused: its sources are unchanged.\n");
  } else {
    process.stderr.write("Building the console (apps/web) from its sources as they are now; this takes up to a minute...\n");
    // turbo makes the client's generated files first; apps/web's build then runs Vite and records its sources.
    execFileSync(
      process.execPath,
      [join(repo, "node_modules/turbo/bin/turbo"), "run", "build", "--filter=@vexil/web", "--output-logs=errors-only"],
      {
        cwd: repo,
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
  }
}

// What the bundle is built from: the server's sources and those of Vexil's packages it bundles,
// the settings esbuild reads, this script, and the lockfile (esbuild's own version).
const packageDirs = readdirSync(join(repo, "packages")).map((name) => `packages/${name}`);
const bundleInputs = [
  "apps/server/src",
  "apps/server/package.json",
  "apps/server/tsconfig.json",
  "apps/server/scripts/build.mjs",
  ...packageDirs.flatMap((dir) => [`${dir}/src`, `${dir}/package.json`]),
  "tooling/typescript",
  "pnpm-lock.yaml",
];
const sourcesStamp = fileURLToPath(new URL(".sources-sha256", dist));
const bundleHash = sourcesHash(repo, bundleInputs);
const entries = ["server.mjs", "vexil.mjs", "password-worker.mjs"].map((name) => fileURLToPath(new URL(name, dist)));
if (isBuilt(sourcesStamp, bundleHash, entries)) process.exit(0);
const { build } = await import("esbuild");
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

// Every bare import outside @vexil/* is left to Node, which resolves it from apps/server: so each
// must be a dependency of this package, or the bundle would fail only when it runs. (The services'
// require of unleash-client and semver through createRequire is not an import esbuild sees: they are declared
// here by hand, and test/build.test.ts calls the frontend API of the built server.)
const undeclared = new Set();
const thirdPartyExternal = {
  name: "third-party-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      if (path.startsWith("node:") || builtins.has(path)) return { path, external: true };
      if (path.startsWith("@vexil/")) return undefined;
      if (!declared.has(packageOf(path))) undeclared.add(packageOf(path));
      return { path, external: true };
    });
  },
};

// Built in memory and written file by file, only where a file changed, each renamed into place:
// test files running side by side each build before they start the built server, and a build of
// the same sources then leaves dist/ as it is under the servers already running from it.
const { outputFiles } = await build({
  write: false,
  absWorkingDir: new URL(".", root).pathname,
  entryPoints: { server: "src/server.ts", vexil: "src/cli/vexil.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  // Chunks sit beside the entries: code that finds files next to itself through import.meta.url
  // (the password worker, the docs page) then finds them in dist/ wherever it was bundled.
  chunkNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  plugins: [thirdPartyExternal],
});
if (undeclared.size > 0) {
  throw new Error(`apps/server must depend on what its bundle imports; add: ${[...undeclared].join(", ")}`);
}
const distDir = new URL(".", dist).pathname;
const wanted = new Map(outputFiles.map((file) => [file.path, file.contents]));
// Files the bundled code opens at run time, relative to itself (password-hasher.ts starts the
// worker from "./password-worker.mjs"; docs-page.ts reads "./docs").
wanted.set(join(distDir, "password-worker.mjs"), readFileSync(new URL("../../packages/password-hasher/src/password-worker.mjs", root)));
const docs = new URL("src/docs/", root).pathname;
for (const name of readdirSync(docs, { recursive: true, withFileTypes: true })) {
  if (name.isFile())
    wanted.set(join(distDir, "docs", relative(docs, join(name.parentPath, name.name))), readFileSync(join(name.parentPath, name.name)));
}
// Last, so that it is written after what it vouches for.
wanted.set(sourcesStamp, `${bundleHash}\n`);
for (const [path, contents] of wanted) {
  if (existsSync(path) && Buffer.from(contents).equals(readFileSync(path))) continue;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.${process.pid}`, contents);
  renameSync(`${path}.${process.pid}`, path);
}
for (const entry of existsSync(distDir) ? readdirSync(distDir, { recursive: true, withFileTypes: true }) : []) {
  const path = join(entry.parentPath, entry.name);
  if (entry.isFile() && !wanted.has(path) && !/\.\d+$/.test(path)) rmSync(path, { force: true });
}
