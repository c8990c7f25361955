// @ts-expect-error: the parser ships no types; its result is described below.
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertError } from "./support/assert-error.ts";
import { until } from "./support/eventually.ts";
import { adminToken, clientToken } from "./support/principals.ts";
import { openSse } from "./support/sse-stream.ts";
import { startTestServer } from "./support/test-server.ts";

/** A metric family as the parser gives it (Prometheus's own text-format rules, ported from its Go parser). */
interface Family {
  name: string;
  type: string;
  help: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> }[];
}

const TOKEN = "prometheus-scrape-token-0123456789";
const srv = await startTestServer({ PROMETHEUS_TOKEN: TOKEN });
const admin = await adminToken(srv);
const sdk = await clientToken(srv);
const scrapeHeaders = { authorization: `Bearer ${TOKEN}` };

async function scrapeText(): Promise<string> {
  const res = await srv.call("GET", "/internal-backstage/prometheus", { headers: scrapeHeaders });
  assert.is(res.status, 200);
  assert.match(String(res.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
  return res.json as string;
}

/** The whole scrape through the parser, which throws on any line Prometheus would refuse. */
async function scrape(): Promise<Map<string, Family>> {
  const families = parsePrometheusTextFormat(await scrapeText()) as Family[];
  return new Map(families.map((family) => [family.name, family]));
}

/**
 * Requests counted with these labels. The parser folds a histogram's series into one and drops
 * their labels (it keeps only unlabelled histograms), so the `_count` samples are parsed on their own.
 */
const requestsOf = (text: string, labels: Record<string, string>) => {
  const counts = text.split("\n").filter((line) => line.startsWith("http_request_duration_seconds_count{"));
  // Each line ends in a newline, as in a scrape: the parser drops a last line without one.
  const [family] = parsePrometheusTextFormat(counts.map((line) => `${line}\n`).join("")) as Family[];
  return (family?.metrics ?? [])
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value), 0);
};

const gauge = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}) => {
  const metric = families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return metric === undefined ? undefined : Number(metric.value);
};

test("without the token's Bearer the scrape is refused with the documented 401 and says nothing", async () => {
  for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, "Basic abc"]) {
    const res = await srv.call("GET", "/internal-backstage/prometheus", { headers: authorization ? { authorization } : {} });
    assertError(res, 401, "AuthenticationRequired");
  }
});

test("requests are counted under their route's pattern, never the raw path; the client API's 304s apart", async () => {
  const before = await scrapeText();
  const feature = "/api/admin/projects/default/features";
  assert.is((await srv.call("POST", feature, { headers: admin, body: { name: "metrics.one" } })).status, 201);
  for (let i = 0; i < 3; i++) {
    assert.is((await srv.call("GET", `${feature}/metrics.one/environments/development/variants`, { headers: admin })).status, 200);
  }
  const full = await srv.call("GET", "/api/client/features", { headers: sdk });
  assert.is(full.status, 200);
  const etag = String(full.headers.etag);
  for (let i = 0; i < 2; i++) {
    assert.is((await srv.call("GET", "/api/client/features", { headers: { ...sdk, "if-none-match": etag } })).status, 304);
  }
  assert.is((await srv.call("GET", "/api/admin/no-such-thing/42", { headers: admin })).status, 404);

  const variants = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants";
  let after = "";
  const delta = (labels: Record<string, string>) => requestsOf(after, labels) - requestsOf(before, labels);
  // A request is counted when its response has been written, which may come just after the client has read it.
  await until(async () => {
    after = await scrapeText();
    return delta({ route: "unmatched", status: "404" }) > 0;
  }, "the last request to be counted");
  assert.is(delta({ route: variants, method: "GET", status: "200" }), 3);
  assert.is(delta({ route: "/api/client/features", status: "200" }), 1);
  assert.is(delta({ route: "/api/client/features", status: "304" }), 2);
  assert.is(delta({ route: "unmatched", status: "404" }), 1);
  assert.not.ok(after.includes("metrics.one"), "a raw path became a label");
  assert.is((await scrape()).get("http_request_duration_seconds")?.type, "HISTOGRAM");
});

test("the SDK streams open on this instance are a gauge that follows them", async () => {
  const opened = await openSse(`${srv.url}/api/client/streaming`, sdk);
  try {
    assert.is(opened.status, 200);
    await until(async () => gauge(await scrape(), "vexil_sdk_streams_open") === 1, "the stream to be counted");
  } finally {
    opened.close();
  }
  await until(async () => gauge(await scrape(), "vexil_sdk_streams_open") === 0, "the closed stream to be uncounted");
});

test("applications that registered are counted once each, whichever instance they registered with", async () => {
  const register = (appName: string, instanceId: string) =>
    srv.call("POST", "/api/client/register", {
      headers: sdk,
      body: {
        appName,
        instanceId,
        sdkVersion: "unleash-client-node:6.12.1",
        strategies: ["default"],
        started: new Date(),
        interval: 15000,
      },
    });
  const seen = gauge(await scrape(), "vexil_sdk_applications_seen") as number;
  assert.is((await register("metrics-app", "a")).status, 202);
  assert.is((await register("metrics-app", "b")).status, 202);
  assert.is((await register("metrics-other-app", "a")).status, 202);
  assert.is(gauge(await scrape(), "vexil_sdk_applications_seen"), seen + 2);
});

test("the process's memory and event-loop delay, and on Postgres the pool's connections", async () => {
  const families = await scrape();
  assert.ok((gauge(families, "process_resident_memory_bytes") ?? 0) > 10 * 1024 * 1024);
  assert.ok(families.has("nodejs_eventloop_lag_p99_seconds"));
  assert.ok(families.has("nodejs_heap_size_used_bytes"));
  if (srv.db.kind === "postgres") {
    assert.ok((gauge(families, "vexil_db_pool_connections", { state: "total" }) ?? 0) >= 1);
    assert.is(gauge(families, "vexil_db_pool_connections", { state: "max" }), 5);
  } else {
    assert.is(families.get("vexil_db_pool_connections")?.metrics.length ?? 0, 0);
  }
});

test.after(() => srv.close());
test.run();
