// The router's type for apps outside the repository, written out in full. d.ts bundlers copy
// declarations as they are written, and `typeof appRouter` names the server's context (Kysely, the
// services) and meta (trpc-to-openapi); the type checker instead resolves each procedure's input
// and output to plain object types, so this file keeps the procedures and erases the rest.
import ts from "typescript";

const FLAGS =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.InTypeAlias |
  ts.NodeBuilderFlags.IgnoreErrors |
  ts.NodeBuilderFlags.MultilineObjectLiterals;

// Names the generated file may use as they are: from TypeScript's lib or imported from @trpc/server.
const KNOWN_NAMES = new Set(["Record", "Array", "ReadonlyArray", "TRPC_ERROR_CODE_NUMBER"]);

const PROCEDURE = { query: "TRPCQueryProcedure", mutation: "TRPCMutationProcedure", subscription: "TRPCSubscriptionProcedure" };

/**
 * The text of a declaration file that exports `AppRouter`, `RouterInputs` and `RouterOutputs`,
 * from the `AppRouter` type that `proceduresFile` (a file of `program`) exports.
 */
export function routerDeclaration(program, proceduresFile) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(proceduresFile);
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source));
  const routerSymbol = exported.find((s) => s.name === "AppRouter") ?? fail(`${proceduresFile} exports no AppRouter`);
  const router = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(routerSymbol));

  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const member = (type, name, path) =>
    checker.getTypeOfSymbolAtLocation(checker.getPropertyOfType(type, name) ?? fail(`no ${name} at ${path}`), source);
  // The checker writes a named interface by its name (the error shape's ValidationDetail); such a
  // type is written out member by member instead, as the file has no declaration to point to.
  const print = (type, path) => {
    const node = checker.typeToTypeNode(type, undefined, FLAGS) ?? fail(`cannot write the type at ${path}`);
    return namesOnlyKnown(node) ? printer.printNode(ts.EmitHint.Unspecified, node, source) : members(type, path);
  };
  const members = (type, path) => {
    if (type.isUnion()) return type.types.map((t) => print(t, path)).join(" | ");
    if (checker.isArrayType(type)) return `(${print(checker.getTypeArguments(type)[0], path)})[]`;
    if (!(type.getFlags() & ts.TypeFlags.Object)) fail(`cannot write ${checker.typeToString(type)} at ${path}`);
    const fields = checker.getPropertiesOfType(type).map((p) => {
      const optional = p.getFlags() & ts.SymbolFlags.Optional ? "?" : "";
      return `${p.name}${optional}: ${print(checker.getTypeOfSymbolAtLocation(p, source), `${path}.${p.name}`)};`;
    });
    return `{ ${fields.join(" ")} }`;
  };

  function record(type, path, indent) {
    const lines = checker.getPropertiesOfType(type).map((property) => {
      const at = `${path}.${property.name}`;
      const value = checker.getTypeOfSymbolAtLocation(property, source);
      const def = checker.getPropertyOfType(value, "_def");
      if (!def) return `${indent}${property.name}: ${record(value, at, `${indent}  `)};`;
      const types = member(member(value, "_def", at), "$types", at);
      const kind = checker.typeToString(member(member(value, "_def", at), "type", at)).replaceAll('"', "");
      const input = print(member(types, "input", at), at);
      const output = print(member(types, "output", at), at);
      return `${indent}${property.name}: ${PROCEDURE[kind] ?? fail(`${at} is a ${kind}`)}<{ input: ${input}; output: ${output}; meta: object }>;`;
    });
    return `{\n${lines.join("\n")}\n${indent.slice(2)}}`;
  }

  const def = member(router, "_def", "AppRouter");
  const errorShape = print(
    member(member(member(def, "_config", "AppRouter"), "$types", "AppRouter"), "errorShape", "AppRouter"),
    "errorShape",
  );
  const procedures = record(member(def, "record", "AppRouter"), "AppRouter", "  ");

  return `import type { TRPC_ERROR_CODE_NUMBER, TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, TRPCSubscriptionProcedure, inferRouterInputs, inferRouterOutputs } from "@trpc/server";

/** What the server's tRPC errors carry in \`data\`. */
type ErrorShape = ${errorShape};

/** The Vexil router as a client sees it: every procedure with its input and output. */
export type AppRouter = TRPCBuiltRouter<{ ctx: object; meta: object; errorShape: ErrorShape; transformer: false }, ${procedures}>;

/** What each procedure takes, as the router's zod schemas accept it, by group and name. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** What each procedure answers, as the router's zod schemas describe it, by group and name. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
`;
}

function namesOnlyKnown(node) {
  if (ts.isImportTypeNode(node)) return false;
  if (ts.isTypeReferenceNode(node) && !(ts.isIdentifier(node.typeName) && KNOWN_NAMES.has(ts.idText(node.typeName)))) return false;
  return !ts.forEachChild(node, (child) => (namesOnlyKnown(child) ? undefined : true));
}

function fail(message) {
  throw new Error(message);
}
