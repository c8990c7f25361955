import { AuthenticationRequired, NoAccessError, type Permission, type Principal, principalHasPermission } from "@vexil/services";

/**
 * Who may call a procedure: anyone, anyone authenticated, holders of one permission, an SDK
 * (a client token, or an admin token) on the client API, or a browser app (a frontend token, or
 * an admin token, as in Unleash) on the frontend API, or either SDK token (or an admin token) on
 * OFREP, or an identity provider's SCIM token (and nothing else) on SCIM.
 */
export type Access = "public" | "authenticated" | "client" | "frontend" | "sdk" | "scim" | Permission;

/**
 * Throws the 401 or 403 of docs/errors.md#check-order. The REST bridge calls it before it reads a body
 * (so that 401 and 403 come before 415, 413 and 400) and every protected procedure calls it
 * again, so that the tRPC transport enforces the same rule.
 */
export function checkAccess(principal: Principal | null, access: Access, environment?: string): asserts principal is Principal {
  if (access === "public") return;
  if (!principal) throw new AuthenticationRequired();
  // A SCIM token provisions users and groups, and does nothing else; nothing else provisions (docs/scim.md#the-scim-token).
  if (access === "scim") {
    if (principal.kind === "scim-token") return;
    throw new NoAccessError(
      "SCIM provisioning takes a SCIM token (an Admin creates one with the type scim); this credential cannot use it.",
    );
  }
  if (principal.kind === "scim-token") throw new NoAccessError("A SCIM token is good for SCIM provisioning (/scim/v2) only.");
  if (access === "client") {
    if (principal.kind === "admin-token" || (principal.kind === "sdk-token" && principal.type === "client")) return;
    throw new NoAccessError("The client API takes a client token (or an admin token); this one cannot use it.");
  }
  if (access === "frontend") {
    if (principal.kind === "admin-token" || (principal.kind === "sdk-token" && principal.type === "frontend")) return;
    throw new NoAccessError("The frontend API takes a frontend token (or an admin token); this one cannot use it.");
  }
  if (access === "sdk") {
    // OpenFeature's providers: a server one holds a client token, a browser one a frontend token (docs/sdk-protocols.md#ofrep).
    if (principal.kind === "admin-token" || principal.kind === "sdk-token") return;
    throw new NoAccessError("OFREP takes a client or frontend token (or an admin token); this one cannot use it.");
  }
  if (principal.kind === "sdk-token") {
    // The 403 names the missing permission (docs/errors.md#no-access); an SDK token (client or frontend) holds none of them.
    const why = `A ${principal.type} token cannot use the admin API; use an admin token or a personal access token.`;
    throw access === "authenticated" ? new NoAccessError(why) : NoAccessError.forPermission(access, environment, why);
  }
  if (access === "authenticated") return;
  if (!principalHasPermission(principal, access)) throw NoAccessError.forPermission(access, environment);
}
