import { InMemStorageProvider, Unleash } from "unleash-client";

/** An SDK not synchronised by then fails the test, naming its server and what it said last. */
const SYNC_DEADLINE_MS = 20_000;

export interface PeerSdk {
  client: Unleash;
  /** Resolves at the SDK's first synchronisation; rejects on an error, a warning or the deadline. */
  synchronized: Promise<void>;
}

/**
 * The Node SDK polling `url` with `token`, as the peer tests use it, and the promise of its first
 * synchronisation, made as the SDK is built: an answer that arrives before the test's next await
 * is not missed (docs/peer-tests.md#an-sdk-that-never-synchronises). A warning fails it too: the
 * SDK answers a 404, a 429 or a 5xx with a warning and waits a whole refresh interval or more.
 */
export function peerSdk(label: string, url: string, token: string, appName: string): PeerSdk {
  const client = new Unleash({
    url,
    appName,
    instanceId: label,
    customHeaders: { Authorization: token },
    refreshInterval: 60_000,
    disableMetrics: true,
    storageProvider: new InMemStorageProvider(),
    // One SDK per server per token, built and destroyed in turn: at most a few live at once.
    skipInstanceCountWarning: true,
  });
  const synchronized = new Promise<void>((resolve, reject) => {
    const fail = (what: string) => {
      clearTimeout(timer);
      reject(new Error(`the SDK of ${label} (${url}) did not synchronise: ${what}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${SYNC_DEADLINE_MS} ms`), SYNC_DEADLINE_MS);
    client.once("synchronized", () => {
      clearTimeout(timer);
      resolve();
    });
    client.on("error", (error: unknown) => fail(`error ${String(error)}`));
    client.on("warn", (warning: unknown) => fail(`warning ${String(warning)}`));
  });
  // Rejections are awaited by the test; until then they must not count as unhandled.
  synchronized.catch(() => {});
  return { client, synchronized };
}
