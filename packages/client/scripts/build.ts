// Writes the generated sources the client needs before it can be type-checked, tested or packed.
import { writeFileSync } from "node:fs";
import { appRouter } from "@vexil/api";
import { restRoutesSource } from "./rest-routes-source.ts";

writeFileSync(new URL("../src/rest-routes.ts", import.meta.url), restRoutesSource(appRouter));
