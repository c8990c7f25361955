import {
  type Compilable,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from "kysely";
import type { Database } from "./database.ts";

/** Stands for a named parameter while the query is compiled; replaced by its value on each run. */
class Parameter {
  constructor(readonly name: string) {}
}

// Statement text -> name, read by the pg pool when it sends a query (see named-statement-pool.ts).
const NAMES = new Map<string, string>();
const TEXTS = new Map<string, string>();

/** The statement name registered for this SQL text, if any. */
export function statementNameFor(sqlText: string): string | undefined {
  return NAMES.get(sqlText);
}

// Builds and compiles queries without a connection; the real database uses the same compiler.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

export interface PreparedQuery<P, R> {
  /** The rows the query returns for these parameters. */
  execute(db: Kysely<Database>, parameters: P): Promise<R[]>;
}

/**
 * A typed Kysely query compiled once and run as the named prepared statement `name` on Postgres,
 * so each connection parses and plans it once. `build` writes the query with `parameters`, whose
 * properties stand for the values given to `execute`; everything else in it is fixed. Its text
 * must not depend on parameter values (use `= any(array)`, not `in (list)`), and it should name
 * its columns: a prepared `select *` breaks when a migration changes the table under it.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  name: string,
  build: (db: Kysely<Database>, parameters: P) => Compilable<R>,
): PreparedQuery<P, R> {
  const placeholders = new Proxy({} as P, { get: (_, key) => new Parameter(String(key)) });
  let compiled: CompiledQuery<R> | undefined;
  const template = () => {
    if (compiled) return compiled;
    compiled = build(compiler, placeholders).compile();
    const known = TEXTS.get(name);
    if (known !== undefined && known !== compiled.sql) throw new Error(`Two prepared queries are named "${name}".`);
    TEXTS.set(name, compiled.sql);
    NAMES.set(compiled.sql, name);
    return compiled;
  };
  return {
    async execute(db, parameters) {
      const query = template();
      const values = query.parameters.map((value) => (value instanceof Parameter ? parameters[value.name] : value));
      return (await db.executeQuery<R>({ ...query, parameters: values })).rows;
    },
  };
}
