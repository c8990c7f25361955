import { type RunningUnleash, startUnleash } from "@vexil/unleash-peer";
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
/** Unleash's own exits a file survives: one is a flake of Unleash's (docs/peer-tests.md#running-them), more a sign of something else. */
const MAX_RESTARTS = 3;
/** How long a failed call waits to learn whether Unleash's process ended under it (the socket may close before the process is reaped). */
const EXIT_NOTICE_MS = 5_000;
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

  // Unleash 8.2 has ended its own process in CI (an error in one of its event listeners): every
  // later step then failed with ECONNREFUSED. So when it exits before stop(), it is started again on
  // its database and port, at most MAX_RESTARTS times, and calls wait for that. Only Unleash's own
  // exit is handled: Vexil's calls, and Unleash's answers, are never retried.
  let restarts = 0;
  /** Settles when Unleash serves again after an exit of its own (rejected when it will not); undefined while it runs. */
  let restarting: Promise<void> | undefined;
  const restartOnExit = () => {
    void unleash.exited.then(([code, signal]) => {
      if (unleash.stopping) return;
      console.error(`Unleash exited (${code ?? signal}) during the tests:\n${lines.slice(-40).join("\n")}`);
      if (restarts === MAX_RESTARTS) {
        restarting = Promise.reject(new Error(`Unleash exited on its own ${restarts + 1} times; not restarted again`));
      } else {
        restarts += 1;
        console.error(`Unleash: restarting it on its database at ${url} (restart ${restarts} of at most ${MAX_RESTARTS})`);
        restarting = unleash.restart().then(() => {
          console.error(`Unleash: restarted at ${url}`);
          restarting = undefined;
          restartOnExit();
        });
      }
      // Awaited by the next call, which then fails with this reason; not unhandled meanwhile.
      restarting.catch(() => undefined);
    });
  };
  restartOnExit();

  /** Whether this process of Unleash ended (now or within EXIT_NOTICE_MS) on its own. */
  const endedOnItsOwn = async (exited: RunningUnleash["exited"]): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      exited.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), EXIT_NOTICE_MS);
      }),
    ]);
    clearTimeout(timer);
    return ended && !unleash.stopping;
  };

  const call = async (method: string, path: string, options?: CallOptions): Promise<Reply> => {
    await restarting;
    const exited = unleash.exited;
    const send = () => callUrl(url, method, path, { timeoutMs: CALL_DEADLINE_MS, ...options });
    try {
      return await send();
    } catch (error) {
      // A call that failed because Unleash's process ended under it is sent once more, to the restarted
      // Unleash; any other failure (a timeout of a running Unleash, say) is the call's own.
      if (!(await endedOnItsOwn(exited))) throw error;
      await restarting;
      console.error(`Unleash: ${method} ${path} was in flight when it exited; sent again to the restarted Unleash`);
      return send();
    }
  };

  return {
    url,
    admin: { authorization: UNLEASH_ADMIN_TOKEN },
    client: { authorization: UNLEASH_CLIENT_TOKEN },
    call,
    timings: unleash.timings,
    lines,
    stop: () => unleash.stop(),
  };
}
