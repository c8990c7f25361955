// How long a change written through one instance takes to be served by another instance's client
// API (within 1 s). Both instances share one database; the write goes through the admin
// API of A, and B is polled as an SDK would, with If-None-Match, until it serves the change.

type Call = (
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<{ json: Record<string, unknown> }>;

export interface CrossInstanceChange {
  /** Milliseconds from sending the write to A until B served it, one per change, sorted. */
  ms: number[];
}

const LIVE_PROJECT = "bench-live";
const LIVE_FEATURE = "live-switch";

export async function measureCrossInstanceChange(
  api: Call,
  a: string,
  b: string,
  admin: Record<string, string>,
  changes: number,
): Promise<CrossInstanceChange> {
  // A project without change requests, so that a switch is a direct write.
  await api(a, "POST", "/api/admin/projects", admin, { id: LIVE_PROJECT, name: LIVE_PROJECT });
  await api(a, "POST", `/api/admin/projects/${LIVE_PROJECT}/environments`, admin, { environment: "development" }).catch(() => undefined);
  await api(a, "POST", `/api/admin/projects/${LIVE_PROJECT}/features`, admin, { name: LIVE_FEATURE });
  const token = await api(a, "POST", "/api/admin/api-tokens", admin, {
    tokenName: "bench-live",
    type: "client",
    projects: [LIVE_PROJECT],
    environment: "development",
  });
  const sdk = { authorization: token.json.secret as string };
  const switchPath = (on: boolean) =>
    `/api/admin/projects/${LIVE_PROJECT}/features/${LIVE_FEATURE}/environments/development/${on ? "on" : "off"}`;

  const servedByB = async (etag: string): Promise<{ enabled: boolean | undefined; etag: string }> => {
    const res = await fetch(`${b}/api/client/features`, { headers: { ...sdk, "if-none-match": etag } });
    if (res.status === 304) {
      await res.arrayBuffer();
      return { enabled: undefined, etag };
    }
    if (res.status !== 200) throw new Error(`instance B answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { features: { name: string; enabled: boolean }[] };
    return { enabled: body.features.find((f) => f.name === LIVE_FEATURE)?.enabled, etag: res.headers.get("etag") ?? "" };
  };

  let { enabled, etag } = await servedByB("");
  const ms: number[] = [];
  for (let i = 0; i < changes; i++) {
    const want = !enabled;
    const sent = performance.now();
    await api(a, "POST", switchPath(want), admin);
    for (;;) {
      const seen = await servedByB(etag);
      etag = seen.etag;
      if (seen.enabled === want) break;
      if (performance.now() - sent > 10_000) throw new Error("instance B did not serve the change within 10 s");
    }
    ms.push(performance.now() - sent);
    enabled = want;
  }
  return { ms: ms.sort((x, y) => x - y) };
}
