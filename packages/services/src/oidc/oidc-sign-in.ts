import { createHash } from "node:crypto";
import type { OidcClient } from "./oidc-client.ts";
import type { OidcSettings } from "./oidc-settings.ts";

/** Single sign-on as the server is configured for it: the settings and the provider's client. */
export interface OidcSignIn {
  settings: OidcSettings;
  client: OidcClient;
}

/** The key a sign-in under way is stored by: the state's SHA-256, so that the table alone cannot finish one. */
export const stateHash = (state: string) => createHash("sha256").update(state).digest("base64url");
