import type { LoadStats } from "./load.ts";

export interface Measured {
  stats: LoadStats;
  peakRssMb: number;
  /** The target process's CPU time (user and system) per answer, in µs, where /proc tells it. */
  cpuUsPerRequest?: number;
  /** Every Postgres process's CPU time per answer, in µs, where /proc tells it (the search rows print it). */
  postgresCpuUsPerRequest?: number;
}

export interface Row {
  scenario: string;
  features: number;
  server: Measured;
  memory?: Measured;
  pg?: Measured;
  /** The peer baseline, Unleash 8.2 (BENCH_PEER=1), on the rows it is measured on. */
  peer?: Measured;
}

const tenth = (n: number) => Math.round(n * 10) / 10;
const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * One figure from several measurements of the same thing: the median of each of req/s, p50 and
 * p99 (so one disturbed round on a shared machine does not decide it), the peak of RSS, and every
 * failure of every round.
 */
export function medianOf(samples: Measured[]): Measured {
  const stats = samples.map((m) => m.stats);
  return {
    stats: {
      rps: median(stats.map((s) => s.rps)),
      p50: tenth(median(stats.map((s) => s.p50))),
      p99: tenth(median(stats.map((s) => s.p99))),
      total: stats.reduce((sum, s) => sum + s.total, 0),
      failures: stats.reduce((sum, s) => sum + s.failures, 0),
      codes: stats.map((s) => s.codes).join(" | "),
    },
    peakRssMb: Math.max(...samples.map((m) => m.peakRssMb)),
    ...(samples.every((m) => m.cpuUsPerRequest !== undefined)
      ? { cpuUsPerRequest: median(samples.map((m) => m.cpuUsPerRequest as number)) }
      : {}),
    ...(samples.every((m) => m.postgresCpuUsPerRequest !== undefined)
      ? { postgresCpuUsPerRequest: median(samples.map((m) => m.postgresCpuUsPerRequest as number)) }
      : {}),
  };
}

const pad = (s: string, n: number) => s.padStart(n);
const fixed = (n: number, digits = 0) => n.toFixed(digits);

export function formatTable(rows: Row[]): string {
  // The peer's columns only when it was measured (BENCH_PEER=1).
  const withPeer = rows.some((row) => row.peer);
  const head = [
    "scenario".padEnd(30),
    pad("features", 8),
    pad("req/s", 7),
    pad("p50", 5),
    pad("p99", 6),
    pad("RSS MB", 7),
    pad("(a) req/s", 10),
    pad("(a) p99", 8),
    pad("(b) req/s", 10),
    pad("(b) p99", 8),
    pad("vs (a)", 7),
    pad("vs (b)", 7),
    ...(withPeer ? [pad("(u) req/s", 10), pad("(u) p99", 8), pad("vs (u)", 7)] : []),
  ].join(" ");
  const lines = [head, "-".repeat(head.length)];
  for (const row of rows) {
    const s = row.server.stats;
    const void_ = [row.server, row.memory, row.pg, row.peer].some((m) => m && m.stats.failures > 0) ? "  (!) non-2xx or errors" : "";
    lines.push(
      [
        row.scenario.padEnd(30),
        pad(String(row.features), 8),
        pad(fixed(s.rps), 7),
        pad(fixed(s.p50, 1), 5),
        pad(fixed(s.p99, 1), 6),
        pad(fixed(row.server.peakRssMb), 7),
        pad(row.memory ? fixed(row.memory.stats.rps) : "-", 10),
        pad(row.memory ? fixed(row.memory.stats.p99, 1) : "-", 8),
        pad(row.pg ? fixed(row.pg.stats.rps) : "-", 10),
        pad(row.pg ? fixed(row.pg.stats.p99, 1) : "-", 8),
        pad(row.memory ? `${fixed(s.rps / row.memory.stats.rps, 2)}x` : "-", 7),
        pad(row.pg ? `${fixed(s.rps / row.pg.stats.rps, 2)}x` : "-", 7),
        ...(withPeer
          ? [
              pad(row.peer ? fixed(row.peer.stats.rps) : "-", 10),
              pad(row.peer ? fixed(row.peer.stats.p99, 1) : "-", 8),
              pad(row.peer ? `${fixed(s.rps / row.peer.stats.rps, 2)}x` : "-", 7),
            ]
          : []),
      ].join(" ") + void_,
    );
  }
  return lines.join("\n");
}

export function check(label: string, value: string, ok: boolean): string {
  return `${ok ? "met   " : "MISSED"}  ${label}: ${value}`;
}
