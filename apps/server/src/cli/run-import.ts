import { importDatabase, LATEST_SCHEMA, readDocument, refuseOtherSchema } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { UsageError } from "./command.ts";
import { describeDatabase, openMigratedDatabase } from "./open-database.ts";
import type { Terminal } from "./terminal.ts";

/** `vexil import`, its flags parsed. */
export async function runImport(terminal: Terminal): Promise<void> {
  const config = loadConfig(terminal.env);
  if (terminal.stdin.isTTY) throw new UsageError("give the document on stdin: vexil import < vexil-export.json");
  let text = "";
  terminal.stdin.setEncoding("utf8");
  for await (const chunk of terminal.stdin) text += chunk;
  // Read and checked in full before the database is touched.
  const document = readDocument(text);
  refuseOtherSchema(document.header, LATEST_SCHEMA, "this Vexil");
  terminal.progress(`Read a document of schema ${document.header.schema}, exported at ${document.header.exportedAt}.`);
  const db = await openMigratedDatabase(config, terminal);
  try {
    const { statisticsFailed } = await importDatabase(db.kysely, document, (line) => terminal.progress(`imported ${line}`));
    terminal.progress(`Import done into ${describeDatabase(config)}.`);
    if (statisticsFailed)
      terminal.progress(`The planner's statistics were not gathered (${statisticsFailed}): run ANALYZE on the database.`);
  } finally {
    await db.close();
  }
}
