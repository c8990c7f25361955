import { createApiToken, createUser, RootRole } from "@vexil/services";
import type { TestServer } from "./test-server.ts";

export type Role = "admin" | "editor" | "viewer";
const ROLE_ID = { admin: RootRole.Admin, editor: RootRole.Editor, viewer: RootRole.Viewer } as const;
export const TEST_PASSWORD = "correct horse battery";

let counter = 0;

/** Headers carrying a new admin API token. */
export async function adminToken(srv: TestServer): Promise<Record<string, string>> {
  const token = await createApiToken(srv.db.kysely, null, { tokenName: `admin-${++counter}`, type: "admin" });
  return { authorization: token.secret };
}

/** Headers carrying a new client (SDK) token, which the admin API refuses. */
export async function clientToken(srv: TestServer): Promise<Record<string, string>> {
  const token = await createApiToken(srv.db.kysely, null, {
    tokenName: `client-${++counter}`,
    type: "client",
    projects: ["default"],
    environment: "development",
  });
  return { authorization: token.secret };
}

/** Headers carrying a new frontend token (for browsers), which only the frontend API takes. */
export async function frontendToken(srv: TestServer): Promise<Record<string, string>> {
  const token = await createApiToken(srv.db.kysely, null, {
    tokenName: `frontend-${++counter}`,
    type: "frontend",
    projects: ["default"],
    environment: "development",
  });
  return { authorization: token.secret };
}

/** Headers carrying a new SCIM token (an identity provider's), which only `/scim/v2` takes, as a bearer token. */
export async function scimToken(srv: TestServer): Promise<Record<string, string>> {
  const token = await createApiToken(srv.db.kysely, null, { tokenName: `scim-${++counter}`, type: "scim" });
  return { authorization: `Bearer ${token.secret}` };
}

/** A new user with that root role, logged in over HTTP; `headers` carry its session cookie. */
export async function userWithRole(
  srv: TestServer,
  role: Role,
  username = `${role}-${process.pid}-${++counter}`,
): Promise<{ id: number; username: string; password: string; headers: Record<string, string> }> {
  const user = await createUser(srv.db.kysely, srv.app.deps.hasher, null, { username, password: TEST_PASSWORD, rootRole: ROLE_ID[role] });
  const headers = await loginHeaders(srv, username, TEST_PASSWORD);
  return { id: user.id, username, password: TEST_PASSWORD, headers };
}

/** Logs in and returns the Cookie header of the new session. */
export async function loginHeaders(srv: TestServer, username: string, password: string): Promise<Record<string, string>> {
  const res = await srv.call("POST", "/auth/simple/login", { body: { username, password } });
  if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.json)}`);
  return { cookie: sessionCookieFrom(res.headers["set-cookie"]) };
}

export function sessionCookieFrom(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!header) throw new Error("no Set-Cookie in the response");
  return header.split(";", 1)[0] as string;
}
