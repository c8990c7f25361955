// Bundles the server and the `vexil` command into dist/ as plain JavaScript, so that production
// runs without the TypeScript loader (tsx alone holds about 40 MB of memory in every process and
// thread). Vexil's own packages are bundled; third-party packages stay external and are loaded
// from node_modules as they are, which keeps native code (bcrypt), wasm (PGlite) and pino's
// transport threads working. Run by `pnpm start`, `pnpm vexil` and the tests before they need it.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { build } from "esbuild";

const root = new URL("../", import.meta.url);
const dist = new URL("dist/", root);
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

rmSync(dist, { recursive: true, force: true });
await build({
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
  rmSync(dist, { recursive: true, force: true });
  throw new Error(`apps/server must depend on what its bundle imports; add: ${[...undeclared].join(", ")}`);
}
// Files the bundled code opens at run time, relative to itself (password-hasher.ts starts the
// worker from "./password-worker.mjs"; docs-page.ts reads "./docs").
cpSync(new URL("../../packages/password-hasher/src/password-worker.mjs", root), new URL("password-worker.mjs", dist));
cpSync(new URL("src/docs/", root), new URL("docs/", dist), { recursive: true });
