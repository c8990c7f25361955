// The before/after mode (BENCH_BEFORE_DIR): the server of an earlier checkout and ours, measured
// in turns in the same rounds, each figure judged against the spread of the before server's rounds.
import { type Measured, medianOf } from "./report.ts";

/** One scenario measured on both servers in the same rounds: every round's measurement of each. */
export interface Comparison {
  scenario: string;
  features: number;
  before: Measured[];
  after: Measured[];
}

/** What the whole bench does not compare, said under its table. */
const NOT_COMPARED =
  "not compared (measured on the current server only, as without BENCH_BEFORE_DIR): the streaming scenario and the cross-instance change (latencies of one server, not request rates), the client 304 poll with SDK metrics at 200/s (one measurement, no rounds to spread), and the frontend API's baseline (c).";

/**
 * The order of one round's measurements: in odd rounds the servers in `alternate` swap places, so
 * that neither always runs right after the other (the machine's state after one load, a drift
 * within a round, falls on both alike).
 */
export function roundOrder<T>(targets: T[], round: number, alternate: T[]): T[] {
  if (round % 2 === 0) return targets;
  const swapped = alternate.filter((t) => targets.includes(t)).reverse();
  let next = 0;
  return targets.map((t) => (alternate.includes(t) ? (swapped[next++] as T) : t));
}

type Verdict = "within spread or better" | "worse" | "void";

interface Judged {
  rps: Verdict;
  p99: Verdict;
}

const spread = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

function judge(c: Comparison): Judged {
  const failed = [...c.before, ...c.after].some((m) => m.stats.failures > 0);
  if (failed) return { rps: "void", p99: "void" };
  const after = medianOf(c.after).stats;
  const beforeRps = c.before.map((m) => m.stats.rps);
  const beforeP99 = c.before.map((m) => m.stats.p99);
  return {
    rps: after.rps >= Math.min(...beforeRps) ? "within spread or better" : "worse",
    p99: after.p99 <= Math.max(...beforeP99) ? "within spread or better" : "worse",
  };
}

interface BeforeAfterReport {
  rounds: number;
  /** Each server's folder and commit. */
  before: string;
  after: string;
  /** What was not compared, said under the table; NOT_COMPARED unless told. */
  notCompared?: string;
  /** Lines said under the table, before its summary. */
  notes?: string[];
  /**
   * The migrations of ours the before checkout lacks, when it ran on a copy of the database with
   * their rows removed from the copy's migration table; absent when both ran on the one database.
   */
  copyWithout?: string[];
}

/** The header's line on the before server's database, when it had a copy of its own. */
function copyHeader(migrations: string[]): string {
  return `before ran on a copy of the bench's database (CREATE DATABASE ... TEMPLATE, once filled; the bench's later writes made on both) with ${migrations.length} newer migrations' rows removed from its migration table (${migrations.join(", ")}): their columns stay, unused by it. Valid only for additive migrations.`;
}

/** The before/after table, its rule, what it skips, and the summary line last. */
export function formatBeforeAfter(
  comparisons: Comparison[],
  { rounds, before, after, notCompared = NOT_COMPARED, notes = [], copyWithout }: BeforeAfterReport,
): string[] {
  const cell = (ms: Measured[], key: "rps" | "p99") => {
    const digits = key === "rps" ? 0 : 1;
    return `${medianOf(ms).stats[key].toFixed(digits)} (${spread(
      ms.map((m) => m.stats[key]),
      digits,
    )})`;
  };
  const head = [
    "scenario".padEnd(30),
    "features".padStart(8),
    "before req/s".padStart(20),
    "after req/s".padStart(20),
    "req/s verdict".padEnd(23),
    "before p99".padStart(20),
    "after p99".padStart(20),
    "p99 verdict".padEnd(23),
    "p50 before->after".padStart(17),
    "RSS MB before->after".padStart(20),
  ].join(" ");
  const lines = [
    `before/after: before = ${before}; after = ${after}`,
    ...(copyWithout ? [copyHeader(copyWithout)] : []),
    "",
    head,
    "-".repeat(head.length),
  ];
  let within = 0;
  const worse: string[] = [];
  for (const c of comparisons) {
    const verdict = judge(c);
    const b = medianOf(c.before);
    const a = medianOf(c.after);
    for (const [figure, v] of [
      ["req/s", verdict.rps],
      ["p99", verdict.p99],
    ] as const) {
      if (v === "within spread or better") within++;
      else worse.push(`${c.scenario} (${c.features}) ${figure}${v === "void" ? " void" : ""}`);
    }
    lines.push(
      [
        c.scenario.padEnd(30),
        String(c.features).padStart(8),
        cell(c.before, "rps").padStart(20),
        cell(c.after, "rps").padStart(20),
        verdict.rps.padEnd(23),
        cell(c.before, "p99").padStart(20),
        cell(c.after, "p99").padStart(20),
        verdict.p99.padEnd(23),
        `${b.stats.p50.toFixed(1)} -> ${a.stats.p50.toFixed(1)}`.padStart(17),
        `${b.peakRssMb.toFixed(0)} -> ${a.peakRssMb.toFixed(0)}`.padStart(20),
      ].join(" "),
    );
  }
  const figures = comparisons.length * 2;
  lines.push(
    "",
    `Both servers ran at once ${copyWithout ? "on two copies of the same data" : "on the one database"}, each measured alone, in turns with the baselines (before and after swap places in odd rounds); each cell the median of ${rounds} rounds (lowest-highest round); p50/p99 in ms; RSS the peak of the rounds.`,
    `rule: req/s is "within spread or better" when after's median req/s >= before's lowest round's req/s; p99 is when after's median p99 <= before's highest round's p99; otherwise "worse". A row with any non-2xx or error in either server's rounds is "void" (not within). p50 and RSS are shown, not judged.`,
    notCompared,
    ...notes,
    "",
    `before/after: ${within} of ${figures} figures within spread or better${worse.length ? `; not within: ${worse.join("; ")}` : ""}`,
  );
  return lines;
}
