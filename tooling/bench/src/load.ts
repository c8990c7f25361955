import autocannon from "autocannon";

export interface LoadSpec {
  method: "GET" | "POST";
  /** A new path for every request, so that no single row stays hot. */
  path: () => string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** A status other than 2xx that is the expected answer (304 for a matching If-None-Match). */
  expectStatus?: number;
  /** Requests per second over all connections; as fast as possible when absent. */
  rate?: number;
}

export interface LoadStats {
  rps: number;
  /** Latency percentiles in ms, exact to 0.1 ms (see runLoad). */
  p50: number;
  p99: number;
  total: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: each makes the figure void. */
  failures: number;
  codes: string;
}

export async function runLoad(base: string, spec: LoadSpec, seconds: number): Promise<LoadStats> {
  const headers = spec.body === undefined ? spec.headers : { ...spec.headers, "content-type": "application/json" };
  // autocannon's own percentiles are whole milliseconds, rounded down; at a p99 of 3 ms that alone
  // can read a 1.5x change as 2x. Every response's time is kept instead (a few 100,000 numbers).
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: spec.connections,
        duration: seconds,
        ...(spec.rate ? { overallRate: spec.rate } : {}),
        requests: [
          {
            method: spec.method,
            headers,
            ...(spec.body === undefined ? {} : { body: spec.body }),
            setupRequest: (req) => ({ ...req, path: spec.path() }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime: number) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  const percentile = (p: number) => Math.round((times[Math.max(0, Math.ceil((p / 100) * times.length) - 1)] ?? Number.NaN) * 10) / 10;
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${(s as { count: number }).count}`)
    .join(" ");
  return {
    rps: result.requests.average,
    p50: percentile(50),
    p99: percentile(99),
    total: result.requests.total,
    failures: result.non2xx - expectedCount(result, spec.expectStatus) + result.errors + result.timeouts,
    codes,
  };
}

function expectedCount(result: autocannon.Result, status: number | undefined): number {
  if (status === undefined) return 0;
  return (result.statusCodeStats as Record<string, { count: number }> | undefined)?.[String(status)]?.count ?? 0;
}
