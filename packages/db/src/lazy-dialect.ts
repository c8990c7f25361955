import { type Dialect, type Driver, type Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";

/**
 * A Postgres-flavoured dialect whose real one is loaded on first use. The embedded database's
 * module costs about 40 MB of memory once imported, which a server on a real Postgres never needs.
 */
export function lazyPostgresDialect(load: () => Promise<Dialect>): Dialect {
  let ready: Promise<Driver> | undefined;
  const driver = () =>
    (ready ??= load().then(async (dialect) => {
      const inner = dialect.createDriver();
      await inner.init();
      return inner;
    }));
  return {
    createAdapter: () => new PostgresAdapter(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
    createDriver: () => ({
      init: async () => {
        await driver();
      },
      acquireConnection: async () => (await driver()).acquireConnection(),
      beginTransaction: async (connection, settings) => (await driver()).beginTransaction(connection, settings),
      commitTransaction: async (connection) => (await driver()).commitTransaction(connection),
      rollbackTransaction: async (connection) => (await driver()).rollbackTransaction(connection),
      releaseConnection: async (connection) => (await driver()).releaseConnection(connection),
      destroy: async () => {
        if (ready) await (await ready).destroy();
      },
    }),
  };
}
