import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken, scimToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

// A small body limit, so that the 413 probe need not send 256 KiB to every route.
const srv = await startTestServer({ BODY_LIMIT_BYTES: "1024" });
const admin = await adminToken(srv);
const client = await clientToken(srv);
// SCIM's routes take a SCIM token only (docs/scim.md#the-scim-token): it stands in for the admin token there.
const scim = await scimToken(srv);
// A user, not an API token: personal-token routes answer an API token 403 before they look anything up.
const adminUser = (await userWithRole(srv, "admin")).headers;
const doc = (await srv.call("GET", "/docs/openapi.json")).json;

interface Operation {
  method: string;
  path: string;
  documented: string[];
  secured: boolean;
  hasBody: boolean;
}

const operations: Operation[] = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    documented: Object.keys(op.responses),
    secured: op.security.length > 0 && !op.security.some((s: object) => Object.keys(s).length === 0),
    hasBody: ["POST", "PUT", "PATCH"].includes(method.toUpperCase()),
  })),
);

const fill = (path: string, value: (name: string) => string) => path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
// Numbered records: `{id}`, and Unleash's names for a group's, a user's and a role's (`{groupId}`, `{userId}`, `{roleId}`).
const NUMBERED = new Set(["id", "groupId", "userId", "roleId"]);
const absent = (name: string) => (NUMBERED.has(name) ? "987654" : "no-such-thing");

/** Sends one probe and checks that the status it gets is one the document lists for the operation. */
async function probe(op: Operation, label: string, path: string, options: Parameters<typeof srv.call>[2], expected?: number) {
  const res = await srv.call(op.method, path, options);
  const where = `${op.method} ${op.path} (${label}) answered ${res.status} ${JSON.stringify(res.json)}`;
  assert.ok(op.documented.includes(String(res.status)), `${where}; documented: ${op.documented.join(", ")}`);
  if (expected !== undefined) assert.is(res.status, expected, where);
}

test("the document lists operations to probe", () => {
  assert.ok(operations.length >= 30);
});

test("every status the server answers to a failing request is documented for that operation", async () => {
  for (const op of operations) {
    // Public operations get no session: logout would end it.
    // The client API serves SDK tokens (an admin token among them), not users.
    const sdk = op.path.startsWith("/api/client/") || op.path.startsWith("/ofrep/");
    const provisioning = op.path.startsWith("/scim/");
    const privileged = provisioning ? scim : admin;
    const caller = provisioning ? scim : sdk ? admin : op.secured ? adminUser : {};
    const missing = fill(op.path, absent);
    await probe(op, "no credentials", missing, op.hasBody ? { body: {} } : {}, op.secured ? 401 : undefined);
    if (op.secured && !sdk) await probe(op, "client token", missing, { headers: client, ...(op.hasBody ? { body: {} } : {}) }, 403);
    if (op.hasBody) {
      await probe(op, "text body", missing, { headers: { ...privileged, "content-type": "text/plain" }, raw: "hello" }, 415);
      await probe(
        op,
        "too large",
        missing,
        { headers: { ...privileged, "content-type": "application/json" }, raw: `"${"x".repeat(2048)}"` },
        413,
      );
      await probe(op, "malformed JSON", missing, { headers: { ...privileged, "content-type": "application/json" }, raw: "{" }, 400);
      await probe(op, "empty object", missing, { headers: caller, body: {} });
    }
    if (op.path.includes("{")) {
      await probe(
        op,
        "bad encoding",
        fill(op.path, () => "%E0%A4%A"),
        { headers: privileged, ...(op.hasBody ? { body: {} } : {}) },
        400,
      );
      if (!op.hasBody) await probe(op, "missing resource", missing, { headers: caller }, 404);
    } else if (!op.hasBody) {
      await probe(op, "admin", op.path, { headers: caller });
    }
  }
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
