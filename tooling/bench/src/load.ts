import autocannon from "autocannon";

export interface LoadSpec {
  method: "GET" | "POST";
  /** A new path for every request, so that no single row stays hot. */
  path: () => string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
}

export interface LoadStats {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: each makes the figure void. */
  failures: number;
  codes: string;
}

export async function runLoad(base: string, spec: LoadSpec, seconds: number): Promise<LoadStats> {
  const headers = spec.body === undefined ? spec.headers : { ...spec.headers, "content-type": "application/json" };
  const result = await autocannon({
    url: base,
    connections: spec.connections,
    duration: seconds,
    requests: [
      {
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        setupRequest: (req) => ({ ...req, path: spec.path() }),
      },
    ],
  });
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}:${(s as { count: number }).count}`)
    .join(" ");
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    codes,
  };
}
