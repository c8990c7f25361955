import { ProjectRole } from "@vexil/services";
import { adminToken, clientToken, frontendToken, loginHeaders, scimToken, TEST_PASSWORD, userWithRole } from "./principals.ts";
import type { TestServer } from "./test-server.ts";

/** Every kind of caller the admin API must tell apart (issue 9's authorization matrix). */
export const PRINCIPAL_KINDS = [
  "nobody",
  "tampered",
  "revoked",
  "viewer",
  "editor",
  "admin",
  "adminToken",
  "clientToken",
  "personalToken",
  "frontendToken",
  "scimToken",
  // The project dimension (docs/project-roles.md#the-rule): users holding a project role in "default".
  "projectViewer",
  "projectMember",
  "projectOwner",
] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];

export interface Caller {
  kind: PrincipalKind;
  headers: Record<string, string>;
  /** The user the caller acts as, when it is one (the personal token acts as its Editor). */
  userId?: number;
}

/** A new caller of that kind: a fresh user, session or token each time. */
export async function newCaller(srv: TestServer, kind: PrincipalKind): Promise<Caller> {
  switch (kind) {
    case "nobody":
      return { kind, headers: {} };
    case "tampered": {
      const { headers } = await userWithRole(srv, "admin");
      // Flip one character inside the sealed part: the seal's MAC must catch it.
      const [name, value] = headers.cookie!.split("=", 2) as [string, string];
      const at = Math.floor(value.length / 2);
      const flipped = value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
      return { kind, headers: { cookie: `${name}=${flipped}` } };
    }
    case "revoked": {
      const { headers } = await userWithRole(srv, "admin");
      const out = await srv.call("POST", "/logout", { body: {}, headers });
      if (out.status !== 200) throw new Error(`logout failed: ${out.status}`);
      return { kind, headers };
    }
    case "viewer":
    case "editor":
    case "admin": {
      const user = await userWithRole(srv, kind);
      return { kind, headers: user.headers, userId: user.id };
    }
    case "adminToken":
      return { kind, headers: await adminToken(srv) };
    case "clientToken":
      return { kind, headers: await clientToken(srv) };
    case "frontendToken":
      return { kind, headers: await frontendToken(srv) };
    case "scimToken":
      return { kind, headers: await scimToken(srv) };
    case "projectViewer":
      return userInDefault(srv, kind, "editor", ProjectRole.Viewer);
    case "projectMember":
      return userInDefault(srv, kind, "viewer", ProjectRole.Member);
    case "projectOwner":
      return userInDefault(srv, kind, "viewer", ProjectRole.Owner);
    case "personalToken": {
      const editor = await userWithRole(srv, "editor");
      const res = await srv.call("POST", "/api/admin/user/tokens", {
        body: { description: "matrix", expiresAt: "2099-01-01T00:00:00.000Z" },
        headers: editor.headers,
      });
      if (res.status !== 201) throw new Error(`personal token failed: ${res.status} ${JSON.stringify(res.json)}`);
      return { kind, headers: { authorization: res.json.secret }, userId: editor.id };
    }
  }
}

/** A user of that root role holding `role` in the project "default", logged in after it was given. */
async function userInDefault(srv: TestServer, kind: PrincipalKind, rootRole: "editor" | "viewer", role: number): Promise<Caller> {
  const user = await userWithRole(srv, rootRole);
  await srv.db.kysely
    .insertInto("role_user")
    .values({ project: "default", user_id: user.id, role_id: role, created_by: "fixture" })
    .execute();
  return { kind, headers: await loginHeaders(srv, user.username, TEST_PASSWORD), userId: user.id };
}
