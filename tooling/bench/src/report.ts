import type { LoadStats } from "./load.ts";

export interface Measured {
  stats: LoadStats;
  peakRssMb: number;
}

export interface Row {
  scenario: string;
  features: number;
  server: Measured;
  memory?: Measured;
  pg?: Measured;
}

const pad = (s: string, n: number) => s.padStart(n);
const fixed = (n: number, digits = 0) => n.toFixed(digits);

export function formatTable(rows: Row[]): string {
  const head = [
    "scenario".padEnd(30),
    pad("features", 8),
    pad("req/s", 7),
    pad("p50", 5),
    pad("p99", 5),
    pad("RSS MB", 7),
    pad("(a) req/s", 10),
    pad("(a) p99", 8),
    pad("(b) req/s", 10),
    pad("(b) p99", 8),
    pad("vs (a)", 7),
    pad("vs (b)", 7),
  ].join(" ");
  const lines = [head, "-".repeat(head.length)];
  for (const row of rows) {
    const s = row.server.stats;
    const void_ = [row.server, row.memory, row.pg].some((m) => m && m.stats.failures > 0) ? "  (!) non-2xx or errors" : "";
    lines.push(
      [
        row.scenario.padEnd(30),
        pad(String(row.features), 8),
        pad(fixed(s.rps), 7),
        pad(String(s.p50), 5),
        pad(String(s.p99), 5),
        pad(fixed(row.server.peakRssMb), 7),
        pad(row.memory ? fixed(row.memory.stats.rps) : "-", 10),
        pad(row.memory ? String(row.memory.stats.p99) : "-", 8),
        pad(row.pg ? fixed(row.pg.stats.rps) : "-", 10),
        pad(row.pg ? String(row.pg.stats.p99) : "-", 8),
        pad(row.memory ? `${fixed(s.rps / row.memory.stats.rps, 2)}x` : "-", 7),
        pad(row.pg ? `${fixed(s.rps / row.pg.stats.rps, 2)}x` : "-", 7),
      ].join(" ") + void_,
    );
  }
  return lines.join("\n");
}

export function check(label: string, value: string, ok: boolean): string {
  return `${ok ? "met   " : "MISSED"}  ${label}: ${value}`;
}
