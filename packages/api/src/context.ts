import type { AuthCache, Database } from "@vexil/db";
import type {
  ClientFeatureHubs,
  ClientFeatureSnapshots,
  ClientMetricsBuffer,
  LoginPolicy,
  PasswordHasher,
  Principal,
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
  /** Who credentials stand for, kept between requests; without it every request looks them up. */
  principals?: AuthCache<Principal>;
  /** What the client API serves, kept between polls; without it every poll reads the database. */
  clientFeatures?: ClientFeatureSnapshots;
  /** What the client API serves as revisions, for delta polls and streams; without it every delta poll is a hydration. */
  clientFeatureHubs?: ClientFeatureHubs;
  /** The open `GET /api/client/streaming` responses; without it that route is not served. */
  clientStreams?: ClientStreams;
  /** Where SDK metrics wait to be stored in batches; without it each report is stored at once. */
  clientMetrics?: ClientMetricsBuffer;
}

/** What a procedure knows about the request it serves. */
export interface Context {
  deps: ApiDeps;
  db: Kysely<Database>;
  /** Who is calling; null for nobody. */
  principal: Principal | null;
  requestId: string;
  log: Logger;
  ip: string;
  userAgent: string | null;
  /** Sets a response header (Location, Set-Cookie) on whichever transport serves the call. */
  setHeader(name: string, value: string | string[]): void;
}
