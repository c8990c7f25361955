// Loaded with --import: any attempt to load the server's packages, or a database driver, fails.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (/^@vexil\\/(?!client)|^(pg|kysely|@electric-sql\\/pglite|@node-rs\\/bcrypt)(\\/|$)/.test(specifier)) {
        throw new Error("the client loaded server code: " + specifier);
      }
      const resolved = await next(specifier, context);
      if (/\\/(apps|packages)\\/(server|api|services|db)\\//.test(resolved.url)) {
        throw new Error("the client loaded server code: " + resolved.url);
      }
      return resolved;
    }
  `)}`,
);
