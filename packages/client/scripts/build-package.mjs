// Builds what `pnpm pack` ships (publishConfig in package.json points there): dist/index.js, one
// ES module bundled by esbuild, and the declarations tsc writes for src/, with procedures.d.ts
// replaced by the router's type written out in full. Inside the repository the package is used
// from src/ as it is; this runs before packing only.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";
import { routerDeclaration } from "./router-declaration.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = `${root}dist/`;

rmSync(dist, { recursive: true, force: true });

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ["src/index.ts"],
  outfile: "dist/index.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // @trpc/client and undici are dependencies of the package; the router is imported as a type only.
  packages: "external",
  metafile: true,
  logLevel: "warning",
});
const outside = Object.keys(metafile.inputs).filter((input) => !input.startsWith("src/"));
if (outside.length > 0) throw new Error(`the bundle took in code from outside src/: ${outside.join(", ")}`);

const config = ts.getParsedCommandLineOfConfigFile(
  `${root}tsconfig.json`,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const program = ts.createProgram([`${root}src/index.ts`], {
  ...config.options,
  noEmit: false,
  declaration: true,
  emitDeclarationOnly: true,
  rewriteRelativeImportExtensions: true,
  rootDir: `${root}src`,
  outDir: dist,
});
const emitted = program.emit();
const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
if (problems.length > 0) throw new Error(ts.formatDiagnostics(problems, ts.createCompilerHost({})));
writeFileSync(`${dist}procedures.d.ts`, routerDeclaration(program, `${root}src/procedures.ts`));
// tsc keeps the `.ts` of relative imports in declarations; the files beside them end in `.d.ts`.
for (const file of readdirSync(dist).filter((f) => f.endsWith(".d.ts"))) {
  const text = readFileSync(`${dist}${file}`, "utf8");
  writeFileSync(`${dist}${file}`, text.replace(/(from ["']\.\/[\w-]+)\.ts(["'])/g, "$1.js$2"));
}

// The written-out router must take and answer exactly what the server's does, procedure by procedure,
// and its errors must carry the same data.
const check = `${dist}same-as-source.ts`;
writeFileSync(
  check,
  `import type { inferRouterError } from "@trpc/server";
import type { AppRouter as Written } from "./procedures.js";
import type { AppRouter } from "../src/procedures.ts";
// Identical, not merely assignable both ways: a renamed optional field must not pass.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Procedures<R> = R extends { _def: { record: infer Record } } ? Record : never;
type Types<R> = { [G in keyof R]: { [P in keyof R[G]]: R[G][P] extends { _def: { $types: { input: infer I; output: infer O } } } ? [I, O] : never } };
type Mine = Types<Procedures<Written>>;
type Source = Types<Procedures<AppRouter>>;
type Sameness = { [G in keyof Source]: { [P in keyof Source[G]]: Same<G extends keyof Mine ? Mine[G][P & keyof Mine[G]] : never, Source[G][P]> } };
// A mismatch names the procedure: "The types of 'banners.create' are incompatible".
export const same: { [G in keyof Sameness]: { [P in keyof Sameness[G]]: true } } = null as unknown as Sameness;
export const sameErrors: Same<inferRouterError<Written>, inferRouterError<AppRouter>> = true;
`,
);
const checked = ts.createProgram([check], { ...config.options, noEmit: true }, undefined, program);
const mismatches = ts.getPreEmitDiagnostics(checked, checked.getSourceFile(check));
rmSync(check);
if (mismatches.length > 0) throw new Error(ts.formatDiagnostics(mismatches, ts.createCompilerHost({})));

// What ships names no package of the repository but itself: outside it, none of them exists.
for (const file of readdirSync(dist)) {
  const text = readFileSync(`${dist}${file}`, "utf8");
  const internal = text.match(/["']@vexil\/(?!client["'/])[^"']*["']/);
  if (internal) throw new Error(`dist/${file} refers to ${internal[0]}`);
}
console.log(`built ${readdirSync(dist).join(", ")} into dist/`);
