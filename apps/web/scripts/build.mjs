// Builds the console into dist/ with Vite, unless dist/ was built from the sources as they are.
import { build } from "vite";
import { consoleSources } from "./console-sources.mjs";

const sources = consoleSources();
if (sources.built) {
  process.stdout.write("The built console is reused: its sources are unchanged.\n");
} else {
  await build({ root: new URL("..", import.meta.url).pathname, logLevel: "warn" });
  sources.recordBuilt();
}
