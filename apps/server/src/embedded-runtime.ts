import { setFlagsFromString } from "node:v8";

/**
 * Makes V8 compile the embedded database's WebAssembly with its baseline compiler (Liftoff) only,
 * never optimising it with TurboFan: the optimised code of PGlite's Postgres, and the memory V8
 * takes while making it, held about 80 MB of the embedded server's resident memory
 * (docs/operations.md#embedded-memory). Called before PGlite's wasm is compiled (V8 reads the flag
 * when it compiles a module), and only when the embedded database is used: a server on Postgres
 * runs no wasm and keeps V8's defaults.
 */
export function compileEmbeddedDatabaseForMemory(): void {
  setFlagsFromString("--liftoff-only");
  // Also lets V8's old space grow to 1.2 times what a collection leaves alive, instead of up to
  // 1.8 times: V8 reads it at every collection, so it holds from here on
  // (docs/operations.md#embedded-memory).
  setFlagsFromString("--heap-growing-percent=20");
}
