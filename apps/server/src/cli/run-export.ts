import { once } from "node:events";
import { exportDatabase } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { openMigratedDatabase } from "./open-database.ts";
import type { Terminal } from "./terminal.ts";

/** `vexil export`, its flags parsed. */
export async function runExport(terminal: Terminal): Promise<void> {
  const config = loadConfig(terminal.env);
  const db = await openMigratedDatabase(config, terminal);
  try {
    // Backpressure: a slow reader of stdout (a pipe to gzip, ssh) must not make the export buffer it all.
    const write = async (text: string) => {
      if (!terminal.stdout.write(text)) await once(terminal.stdout, "drain");
    };
    await exportDatabase(db.kysely, write, (line) => terminal.progress(`exported ${line}`));
    terminal.progress("Export done.");
  } finally {
    await db.close();
  }
}
