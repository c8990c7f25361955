import * as assert from "uvu/assert";
import { readSpecFile, type SpecFile } from "./specification-files.ts";
import { loadSpecState, type Refusal } from "./specification-state.ts";
import type { TestServer } from "./test-server.ts";

/**
 * A specification file's state in a project of its own (`spec-<index>`, development enabled),
 * created through the admin API, with a token of `type` for that project and environment.
 */
export async function specFileProject(
  srv: TestServer,
  admin: Record<string, string>,
  fileName: string,
  index: number,
  type: "client" | "frontend",
): Promise<{ file: SpecFile; refusals: Refusal[]; secret: string }> {
  const file = readSpecFile(fileName);
  const project = `spec-${index}`;
  const call = (method: string, path: string, body?: unknown) =>
    srv.call(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });
  assert.is((await call("POST", "/api/admin/projects", { id: project, name: file.name })).status, 201);
  assert.is((await call("POST", `/api/admin/projects/${project}/environments`, { environment: "development" })).status, 200);
  const refusals = await loadSpecState(call, project, "development", file.state);
  const token = await call("POST", "/api/admin/api-tokens", { tokenName: project, type, projects: [project], environment: "development" });
  assert.is(token.status, 201);
  return { file, refusals, secret: token.json.secret as string };
}
