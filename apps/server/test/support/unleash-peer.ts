import { startUnleash } from "@vexil/unleash-peer";
import { type CallOptions, callUrl, type Reply } from "./test-server.ts";

/**
 * The real Unleash 8.2, beside Vexil in the tests (issue 24), started by @vexil/unleash-peer (installed
 * into its cache once, on Node 24, on a fresh Postgres database of its own, stopped and its database
 * dropped by `stop()`). Peer tests run only with VEXIL_PEER_TESTS=1: they need the npm registry once
 * and a real Postgres, and Unleash takes seconds to migrate a new database.
 */
export const PEER_TESTS = process.env.VEXIL_PEER_TESTS === "1";
export const PEER_SKIP_REASON =
  "skipped: set VEXIL_PEER_TESTS=1 to run Unleash 8.2 beside Vexil (needs npm and Postgres on 127.0.0.1:5432)";

/** Every call to Unleash fails, naming it, past this: a test waits on nothing for ever (docs/peer-tests.md#running-them). */
const CALL_DEADLINE_MS = 30_000;
const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const UNLEASH_ADMIN_TOKEN = "*:*.vexil-peer-admin-token";
/** A client token of the project "default" in "development", the scope Vexil's test client token has. */
const UNLEASH_CLIENT_TOKEN = "default:development.vexil-peer-client-token";

export interface UnleashPeer {
  url: string;
  admin: Record<string, string>;
  client: Record<string, string>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Seconds the install took (0 when the cache had it) and the start took, for CI's time budget. */
  timings: { installSeconds: number; startSeconds: number };
  /** Every line Unleash wrote, for a failure's message. */
  lines: string[];
  stop(): Promise<void>;
}

/** Unleash 8.2 on Node 24, on a new database of the Postgres TEST_DATABASE_URL names (127.0.0.1:5432 otherwise). */
export async function startUnleashPeer(): Promise<UnleashPeer> {
  const unleash = await startUnleash({
    postgresUrl: process.env.TEST_DATABASE_URL ?? DEFAULT_SERVER_URL,
    databaseName: `vexil_peer_${process.pid}_${Date.now()}`,
    apiTokens: [
      { environment: "*", project: "*", secret: UNLEASH_ADMIN_TOKEN, tokenName: "peer-admin", type: "admin" },
      { environment: "development", project: "default", secret: UNLEASH_CLIENT_TOKEN, tokenName: "peer-client", type: "client" },
    ],
    env: {
      // Unleash memoizes the payload per revision, and learns of a new revision on a timer: without the
      // cache a payload read right after a write shows the write, as Vexil's read model does at commit.
      CLIENT_FEATURE_CACHING_ENABLED: "false",
      // Unleash 8.2 refuses variants of a feature environment (the source document's operations) on a
      // flag that has none yet, 403 "Environment variants deprecated", unless this switch of its own is on.
      UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS: "true",
    },
  });
  const { url, lines } = unleash;
  // Every later step would fail with ECONNREFUSED: say why once, with what Unleash wrote last.
  void unleash.exited.then(([code, signal]) => {
    if (!unleash.stopping) console.error(`Unleash exited (${code ?? signal}) during the tests:\n${lines.slice(-40).join("\n")}`);
  });

  return {
    url,
    admin: { authorization: UNLEASH_ADMIN_TOKEN },
    client: { authorization: UNLEASH_CLIENT_TOKEN },
    call: (method, path, options) => callUrl(url, method, path, { timeoutMs: CALL_DEADLINE_MS, ...options }),
    timings: unleash.timings,
    lines,
    stop: () => unleash.stop(),
  };
}
