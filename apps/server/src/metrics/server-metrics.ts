import type { IncomingMessage, ServerResponse } from "node:http";
import { type ApiDeps, routeLabelOf } from "@vexil/api";
import type { DatabaseConnection } from "@vexil/db";
import { sql } from "kysely";
import type { AttemptOutcome } from "@vexil/services";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";

/** What an instance reports at `GET /internal-backstage/prometheus` (docs/operations.md#prometheus). */
export interface ServerMetrics {
  /** Records a finished request under its route's pattern. */
  observeRequest(req: IncomingMessage, res: ServerResponse, seconds: number): void;
  /** Counts one integration delivery attempt by its outcome (docs/webhooks.md#metrics). */
  countDelivery(outcome: AttemptOutcome): void;
  /** The scrape: Prometheus's text format and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

// Request durations from a fast SDK poll (well under a millisecond) to a slow admin write.
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// A scrape counts the applications that registered within this window, as Unleash's dashboard does.
const APPLICATIONS_WINDOW = "1 day";

/** One series of the request histogram: its labels, a count per bucket (not cumulative), the sum and the count. */
interface Series {
  labels: string;
  buckets: number[];
  sum: number;
  count: number;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

/**
 * `http_request_duration_seconds`, counted here and written in Prometheus's text format at the
 * scrape. prom-client's Histogram hashed its labels and validated them on every observation, 5% of
 * a repeated poll's CPU in a profile (tooling/bench/README.md); here a request finds its series by
 * three map look-ups and counts one bucket.
 */
function createRequestHistogram(name: string, help: string) {
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const observe = (route: string, method: string, status: number, seconds: number) => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let one = byStatus.get(status);
    if (!one) {
      const labels = `route="${escapeLabel(route)}",method="${escapeLabel(method)}",status="${status}"`;
      byStatus.set(status, (one = { labels, buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
    if (bucket < DURATION_BUCKETS.length) one.buckets[bucket] = (one.buckets[bucket] as number) + 1;
    one.sum += seconds;
    one.count++;
  };
  const text = () => {
    const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
    for (const byMethod of series.values())
      for (const byStatus of byMethod.values())
        for (const one of byStatus.values()) {
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += one.buckets[i] as number;
            lines.push(`${name}_bucket{le="${le}",${one.labels}} ${cumulative}`);
          });
          lines.push(`${name}_bucket{le="+Inf",${one.labels}} ${one.count}`);
          lines.push(`${name}_sum{${one.labels}} ${one.sum}`, `${name}_count{${one.labels}} ${one.count}`);
        }
    return `${lines.join("\n")}\n`;
  };
  return { observe, text };
}

/**
 * One registry per app, so that several apps in one process (the tests) keep their own counts. The
 * gauges are read at scrape time; only the request histogram (counted here) costs anything per request.
 */
export function createServerMetrics(deps: ApiDeps, db: DatabaseConnection): ServerMetrics {
  const registry = new Registry();
  // Process memory, CPU, event-loop delay, heap and GC, under Node's usual metric names.
  collectDefaultMetrics({ register: registry });

  const requests = createRequestHistogram(
    "http_request_duration_seconds",
    "Time from a request's arrival to the end of its response, by route pattern (never the raw path), method and status.",
  );
  new Gauge({
    name: "vexil_sdk_streams_open",
    help: "SDK streams (client streaming and delta streams) open on this instance.",
    registers: [registry],
    collect() {
      this.set(deps.servedFeatures.streams);
    },
  });
  new Gauge({
    name: "vexil_sdk_applications_seen",
    help: `SDK applications (distinct appName) that registered within the last ${APPLICATIONS_WINDOW}, across instances.`,
    registers: [registry],
    async collect() {
      const row = await deps.db
        .selectFrom("client_instances")
        .select(sql<number>`count(distinct app_name)::int`.as("apps"))
        .where("last_seen", ">", sql<Date>`now() - ${APPLICATIONS_WINDOW}::interval`)
        .executeTakeFirstOrThrow();
      this.set(row.apps);
    },
  });
  new Gauge({
    name: "vexil_db_pool_connections",
    help: "Connections of this instance's Postgres pool, by state (absent on the embedded database).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = db.poolStats();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "in_use" }, stats.total - stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
      this.set({ state: "max" }, stats.max);
    },
  });

  const deliveries = new Counter({
    name: "vexil_webhook_deliveries_total",
    help: "Integration delivery attempts by this instance, by provider and outcome (delivered, retrying: failed and tried again later, failed: given up).",
    labelNames: ["provider", "outcome"] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: "vexil_webhook_failures_total",
    help: "Integration delivery attempts by this instance that failed (the receiver answered other than 2xx, or not at all), by provider.",
    labelNames: ["provider"] as const,
    registers: [registry],
  });

  return {
    countDelivery({ provider, outcome }) {
      deliveries.inc({ provider, outcome });
      if (outcome !== "delivered") failures.inc({ provider });
    },
    observeRequest(req, res, seconds) {
      requests.observe(routeLabelOf(res) ?? "unmatched", req.method ?? "", res.statusCode, seconds);
    },
    async scrape() {
      return { contentType: registry.contentType, body: `${await registry.metrics()}\n${requests.text()}` };
    },
  };
}
