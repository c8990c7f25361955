import type { ErrorName } from "@vexil/api";
import * as assert from "uvu/assert";
import { type Reply, UUID_V4 } from "./test-server.ts";

/** A failure in the one error body (docs/errors.md#error-body), with the expected status and name. */
export function assertError(res: Reply, status: number, name: ErrorName): void {
  assert.is(res.status, status, JSON.stringify(res.json));
  assert.is(res.headers["content-type"], "application/json; charset=utf-8");
  assert.match(res.json.id, UUID_V4);
  assert.is(res.json.name, name);
  assert.type(res.json.message, "string");
}
