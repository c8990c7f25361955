import { type Permission, RootRole, type RootRoleId, roleHasPermission } from "./permissions.ts";

/** Who is calling: a person (by session or personal token) or an API token. */
export type Principal =
  | {
      kind: "user";
      userId: number;
      username: string;
      rootRole: RootRoleId;
      via: "session" | "personal-token";
      sessionId?: string;
    }
  | { kind: "admin-token"; tokenId: number; tokenName: string }
  /** An identity provider's token: good for SCIM provisioning (`/scim/v2`) and nothing else (docs/scim.md). */
  | { kind: "scim-token"; tokenId: number; tokenName: string }
  | {
      /** A token an SDK holds: a server-side SDK's (`client`) or a browser's (`frontend`). */
      kind: "sdk-token";
      tokenId: number;
      tokenName: string;
      type: "client" | "frontend";
      /** The projects it is served, `["*"]` for all, and the one environment. */
      projects: string[];
      environment: string;
    };

export function principalHasPermission(principal: Principal, permission: Permission): boolean {
  switch (principal.kind) {
    case "admin-token":
      return true;
    case "sdk-token":
    case "scim-token":
      return false;
    case "user":
      return roleHasPermission(principal.rootRole, permission);
  }
}

export function isAdmin(principal: Principal): boolean {
  return principal.kind === "admin-token" || (principal.kind === "user" && principal.rootRole === RootRole.Admin);
}

/** The name events record as `createdBy`. */
export function actorName(principal: Principal | null): string {
  if (!principal) return "system";
  return principal.kind === "user" ? principal.username : principal.tokenName;
}

export function actorUserId(principal: Principal | null): number | null {
  return principal?.kind === "user" ? principal.userId : null;
}
