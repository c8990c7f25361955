import type { AuthCache, Database } from "@vexil/db";
import type {
  ClientMetricsBuffer,
  ConsoleEventHub,
  LoginPolicy,
  OidcSignIn,
  PasswordHasher,
  Principal,
  ServedFeatures,
  TargetPolicy,
} from "@vexil/services";
import type { Kysely } from "kysely";
import type { ClientStreams } from "./client-streaming/client-streams.ts";
import type { CookieSettings } from "./session-cookie.ts";

/** The few logger methods the API uses; pino's logger satisfies it. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): Logger;
  /** Whether a level is logged at all (pino's); without it every level counts as logged. */
  isLevelEnabled?(level: string): boolean;
}

/** Long-lived things every request shares, wired once by the server. */
export interface ApiDeps {
  db: Kysely<Database>;
  log: Logger;
  hasher: PasswordHasher;
  cookies: CookieSettings;
  loginPolicy: LoginPolicy;
  /** Who credentials stand for, kept between requests. */
  principals: AuthCache<Principal>;
  /** What SDKs are served (client, delta, streaming and frontend APIs): snapshots, renderings and revisions per scope. */
  servedFeatures: ServedFeatures;
  /** The open `GET /api/client/streaming` responses. */
  clientStreams: ClientStreams;
  /** What open consoles are told when something changes, on any instance (docs/console-live.md). */
  consoleEvents: ConsoleEventHub;
  /** Where SDK metrics wait to be stored in batches. */
  clientMetrics: ClientMetricsBuffer;
  /** Single sign-on with OpenID Connect, where it is set up (docs/oidc.md#settings); null where it is not. */
  oidc: OidcSignIn | null;
  /** Whether integrations may be saved with loopback and private URLs (docs/webhooks.md#private-addresses). */
  addonTargets: TargetPolicy;
}

/** What a procedure knows about the request it serves. */
export interface Context {
  deps: ApiDeps;
  db: Kysely<Database>;
  /** Who is calling; null for nobody. */
  principal: Principal | null;
  /** The credential the request carried when it was refused (unknown, expired or revoked), so that a 401 says so. */
  refusedCredential?: "token" | "session" | undefined;
  /** The request's logger: its lines carry the request's id (`reqId`). */
  log: Logger;
  ip: string;
  userAgent: string | null;
  /** The request's Cookie header: single sign-on's callback reads its state cookie there (docs/oidc.md#the-flow). */
  cookie?: string | undefined;
  /** Sets a response header (Location, Set-Cookie) on whichever transport serves the call. */
  setHeader(name: string, value: string | string[]): void;
  /**
   * The REST bridge has already checked the route's access rule for this call (before reading its
   * body, docs/errors.md#check-order), so the procedure does not check it again.
   */
  accessChecked?: true;
}

/** The context of a caller who passed the route's access rule. */
export type ProtectedContext = Context & { principal: Principal };
