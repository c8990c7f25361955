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
  return parsed.data;
}
