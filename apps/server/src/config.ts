import { z } from "zod";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const isOrigin = (value: string) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value;
  } catch {
    return false;
  }
};
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** HTTPS, or plain HTTP to this machine only (a provider started beside Vexil, as in its tests and README). */
const isIssuer = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
};
const isCallback = (value: string) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.pathname === "/auth/oidc/callback" && !url.search && !url.hash;
  } catch {
    return false;
  }
};
const ROLE_IDS: Record<string, 1 | 2 | 3> = { admin: 1, editor: 2, viewer: 3 };
const roleName = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(["admin", "editor", "viewer"], "must be Admin, Editor or Viewer"))
  .transform((v) => ROLE_IDS[v] as 1 | 2 | 3);

// The only place in Vexil that reads process.env; everything else receives these values.
const schema = z.object({
  PORT: int(0, 65_535).default(4242),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgres:// or postgresql:// connection string")
    .optional(),
  DATA_DIR: z.string().min(1).default(".vexil/data"),
  DATABASE_POOL_SIZE: int(1, 1_000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: int(100, 600_000).default(15_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_PRETTY: bool.optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SECURE_COOKIES: bool.default(false),
  SESSION_IDLE_TIMEOUT_MS: int(60_000, 48 * 3600_000).default(24 * 3600_000),
  /** How long an instance may keep who a token or session stands for; changes evict it at once. 0 turns it off. */
  AUTH_CACHE_TTL_MS: int(0, 3_600_000).default(10_000),
  ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").default("unleash4all"),
  INIT_ADMIN_API_TOKENS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^\*:\*\.[A-Za-z0-9_-]{16,}$/, 'each token must look like "*:*.<secret of 16+ characters>"')))
    .default([]),
  TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6()], "must be a comma-separated list of proxy IP addresses")))
    .default([]),
  /** Browser origins allowed to call the API from their pages; none means CORS stays off. */
  CORS_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isOrigin, "must be an origin like https://app.example.com (no path, no wildcard)")))
    .default([]),
  PASSWORD_WORKERS: int(1, 64).optional(),
  BCRYPT_COST: int(10, 16).default(10),
  /** How often each instance looks for due scheduled change requests; 0 turns it off. */
  SCHEDULER_INTERVAL_MS: int(0, 3_600_000).default(10_000),
  /** How often expired sessions and stale failed-login records are deleted; 0 turns it off. */
  HOUSEKEEPING_INTERVAL_MS: int(0, 86_400_000).default(600_000),
  /** How often SDK metrics summed in memory are stored; 0 stores them only at shutdown (and when ticked). */
  METRICS_FLUSH_INTERVAL_MS: int(0, 3_600_000).default(10_000),
  /** The console's address as people reach it, for the links in Slack messages; `http://HOST:PORT` when unset. */
  PUBLIC_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^/]/.test(v), "must be an http:// or https:// URL")
    .optional(),
  /** How often each instance looks for due integration deliveries besides being woken by NOTIFY; 0 turns delivery off on it. */
  WEBHOOK_POLL_INTERVAL_MS: int(0, 3_600_000).default(5_000),
  /** The first retry of a failed delivery waits this long, each next one twice as long (docs/webhooks.md#retries). */
  WEBHOOK_RETRY_BASE_MS: int(10, 3_600_000).default(10_000),
  /** The longest wait between two attempts. */
  WEBHOOK_RETRY_MAX_MS: int(10, 86_400_000).default(3_600_000),
  /** A delivery still failing this long after its event is recorded as failed. */
  WEBHOOK_GIVE_UP_AFTER_MS: int(1_000, 30 * 86_400_000).default(86_400_000),
  /** One attempt's time limit (a claimed delivery comes back to every instance after twice this). */
  WEBHOOK_TIMEOUT_MS: int(100, 600_000).default(10_000),
  /** true lets integrations be saved with, and deliver to, loopback and private addresses (docs/webhooks.md#private-addresses). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** Days of SDK metrics kept (per day) before today; older ones are deleted by housekeeping (docs/sdk-protocols.md#metrics-storage). */
  METRICS_RETENTION_DAYS: int(2, 36_500).default(90),
  /** Streams (`GET /api/client/streaming`) one instance keeps open; past it SDKs are told to poll. */
  STREAMING_MAX_CONNECTIONS: int(0, 1_000_000).default(10_000),
  /** How often every stream gets a comment line, so that proxies keep idle connections (the Node SDK gives up after 60 s of silence). */
  STREAMING_HEARTBEAT_MS: int(100, 55_000).default(30_000),
  /** Revisions each scope keeps, so that an SDK that was that close resumes (Last-Event-ID, If-None-Match) without a hydration. */
  STREAMING_HISTORY: int(1, 10_000).default(100),
  /** When set, `GET /internal-backstage/prometheus` takes `Authorization: Bearer <this>`; unset, it is open (as Unleash's). */
  PROMETHEUS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** false turns password login off; then only single sign-on (and tokens) get in (docs/oidc.md#password-login). */
  PASSWORD_LOGIN: bool.default(true),
  /** Single sign-on with OpenID Connect (docs/oidc.md#settings): off unless the issuer, the client id and the redirect URL are set. */
  OIDC_ISSUER_URL: z.string().refine(isIssuer, "must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])").optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  /** `<public URL>/auth/oidc/callback`; `PUBLIC_URL` gives it when unset. */
  OIDC_REDIRECT_URL: z.string().refine(isCallback, "must be an http(s) URL ending in /auth/oidc/callback").optional(),
  OIDC_SCOPES: z
    .string()
    .transform((v) => [...new Set(["openid", ...v.split(/[\s,]+/).filter(Boolean)])].join(" "))
    .default("openid email profile"),
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).default("single sign-on"),
  OIDC_ROLE_CLAIM: z.string().trim().min(1).max(200).optional(),
  /** The claim listing the person's groups, whose memberships (and so project roles) follow it (docs/oidc.md#groups). */
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).max(200).optional(),
  /** `value=Role,value=Role`: a value of the role claim and the root role it grants. */
  OIDC_ROLE_MAP: z
    .string()
    .transform((v, ctx) => {
      const map = new Map<string, 1 | 2 | 3>();
      for (const entry of v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean)) {
        const at = entry.lastIndexOf("=");
        const role =
          ROLE_IDS[
            entry
              .slice(at + 1)
              .trim()
              .toLowerCase()
          ];
        if (at <= 0 || !role) {
          ctx.addIssue({ code: "custom", message: `"${entry}" must look like "<claim value>=Admin|Editor|Viewer"` });
          return z.NEVER;
        }
        map.set(entry.slice(0, at).trim(), role);
      }
      return map;
    })
    .default(new Map()),
  /** Whether a person Vexil does not know is created at their first sign-in (else refused). */
  OIDC_AUTO_CREATE: bool.default(false),
  /** The role of a user created at sign-in when the role claim maps to none. */
  OIDC_AUTO_CREATE_ROLE: roleName.default(3),
  BODY_LIMIT_BYTES: int(1_024, 64 * 1024 * 1024).default(256 * 1024),
  REQUEST_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
  HEADERS_TIMEOUT_MS: int(1_000, 600_000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: int(0, 600_000).default(5_000),
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads and checks the configuration; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  if (parsed.data.HEADERS_TIMEOUT_MS > parsed.data.REQUEST_TIMEOUT_MS) {
    throw new ConfigError("Invalid configuration:\n  HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS");
  }
  const config = parsed.data;
  if (!config.OIDC_REDIRECT_URL && config.OIDC_ISSUER_URL && config.PUBLIC_URL) {
    config.OIDC_REDIRECT_URL = `${config.PUBLIC_URL.replace(/\/+$/, "")}/auth/oidc/callback`;
  }
  const problems = oidcProblems(config);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return config;
}

/** Single sign-on is all or nothing: a half-configured one would fail only when someone tries it. */
function oidcProblems(config: Config): string[] {
  const oidcNames = Object.keys(config).filter((k) => k.startsWith("OIDC_") && config[k as keyof Config] !== undefined);
  const required = {
    OIDC_ISSUER_URL: config.OIDC_ISSUER_URL,
    OIDC_CLIENT_ID: config.OIDC_CLIENT_ID,
    OIDC_REDIRECT_URL: config.OIDC_REDIRECT_URL,
  };
  const configured = Object.values(required).some((v) => v !== undefined);
  const problems: string[] = [];
  if (configured) {
    for (const [name, value] of Object.entries(required)) {
      if (value === undefined)
        problems.push(`${name}: is needed for single sign-on${name === "OIDC_REDIRECT_URL" ? " (or set PUBLIC_URL)" : ""}`);
    }
  } else if (oidcNames.some((n) => ["OIDC_CLIENT_SECRET", "OIDC_ROLE_CLAIM", "OIDC_GROUPS_CLAIM"].includes(n))) {
    problems.push("OIDC_ISSUER_URL: is needed for the other OIDC_ settings to mean anything");
  }
  if (config.OIDC_ROLE_MAP.size > 0 && !config.OIDC_ROLE_CLAIM)
    problems.push("OIDC_ROLE_CLAIM: is needed for OIDC_ROLE_MAP (which claim holds the values?)");
  if (!config.PASSWORD_LOGIN && !configured) {
    problems.push(
      "PASSWORD_LOGIN: can be false only with single sign-on set up (OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_REDIRECT_URL), or nobody could log in",
    );
  }
  return problems;
}
