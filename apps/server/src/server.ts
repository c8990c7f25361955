import { DataDirInUse } from "@vexil/db";
import { ConfigError } from "./config.ts";
import { runServer } from "./run-server.ts";

runServer(process.env).catch((error) => {
  // A configuration or a busy data directory is the operator's to fix: the message says how.
  const expected = error instanceof ConfigError || error instanceof DataDirInUse;
  process.stderr.write(
    expected ? `${error.message}\n` : `Vexil failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
