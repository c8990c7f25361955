/** One stored count row, as GET /api/admin/client-metrics/features/{name}/raw answers it. */
export interface MetricsRow {
  appName: string;
  environment: string;
  timestamp: string;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** One environment's exposures, one slot per hour, summed over the applications. */
export interface EnvironmentExposures {
  environment: string;
  /** The hours' starts, in seconds since the epoch (uPlot's x values), oldest first. */
  hours: number[];
  yes: number[];
  no: number[];
  /** Per variant name, sorted, a count per hour. */
  variants: Map<string, number[]>;
}

const HOUR_MS = 3_600_000;
export const HOURS = 48;

/** The last 48 hours up to the current one, per environment, with the hours nobody reported as zeros. */
export function exposuresByHour(rows: readonly MetricsRow[], now = Date.now()): EnvironmentExposures[] {
  const last = Math.floor(now / HOUR_MS) * HOUR_MS;
  const first = last - (HOURS - 1) * HOUR_MS;
  const hours = Array.from({ length: HOURS }, (_, i) => (first + i * HOUR_MS) / 1000);
  const byEnvironment = new Map<string, EnvironmentExposures>();
  for (const row of rows) {
    const slot = (Date.parse(row.timestamp) - first) / HOUR_MS;
    if (!Number.isInteger(slot) || slot < 0 || slot >= HOURS) continue;
    let env = byEnvironment.get(row.environment);
    if (!env) {
      env = { environment: row.environment, hours, yes: Array(HOURS).fill(0), no: Array(HOURS).fill(0), variants: new Map() };
      byEnvironment.set(row.environment, env);
    }
    env.yes[slot] = (env.yes[slot] ?? 0) + row.yes;
    env.no[slot] = (env.no[slot] ?? 0) + row.no;
    for (const [name, count] of Object.entries(row.variants)) {
      const counts = env.variants.get(name) ?? Array<number>(HOURS).fill(0);
      counts[slot] = (counts[slot] ?? 0) + count;
      env.variants.set(name, counts);
    }
  }
  const sorted = [...byEnvironment.values()].sort((a, b) => (a.environment < b.environment ? -1 : 1));
  for (const env of sorted) env.variants = new Map([...env.variants].sort(([a], [b]) => (a < b ? -1 : 1)));
  return sorted;
}

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
