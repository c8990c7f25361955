import { Agent, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
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
  /**
   * An open load instead: requests arrive at this mean rate a second, each at a random moment, whether
   * or not the earlier ones were answered (runOpenLoad). `connections` is then the most in flight.
   */
  arrivals?: number;
  /** Each request's own method, path and body instead of `method`, `path` and `body`: a mix of writes. */
  next?: () => { method: "GET" | "POST" | "PATCH" | "PUT"; path: string; body?: string };
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
  if (spec.arrivals !== undefined) return runOpenLoad(base, spec, spec.arrivals, seconds);
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
            // Fresh headers for each of a mix: autocannon keeps the last body's Content-Length in the ones it is given.
            setupRequest: (req) => ({ ...req, ...(spec.next ? { headers: { ...spec.headers }, ...spec.next() } : { path: spec.path() }) }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime: number) => times.push(responseTime));
  });
  const percentile = percentilesOf(times);
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

/**
 * Requests arriving as independent people's do: at `arrivals` a second on average, the gaps between
 * them drawn from the exponential distribution (a Poisson process), each sent when it is due whether
 * or not earlier ones were answered. autocannon's `overallRate` cannot stand for that: it sends each
 * second's requests together at the second's start, bursts of every connection at once. A
 * request's time runs from the moment it was due, so a server that falls behind (or a request that
 * waits for one of the `connections` keep-alive sockets) is charged for the wait.
 */
async function runOpenLoad(base: string, spec: LoadSpec, arrivals: number, seconds: number): Promise<LoadStats> {
  const { hostname, port } = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const times: number[] = [];
  const codes = new Map<string, number>();
  let failures = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const done = (code: string, ok: boolean) => {
        times.push(performance.now() - due);
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (!ok) failures++;
        resolve();
      };
      const { method, path, body } = spec.next?.() ?? { method: spec.method, path: spec.path(), body: spec.body };
      const headers = body === undefined ? spec.headers : { ...spec.headers, "content-type": "application/json" };
      const req = request({ hostname, port, path, method, headers, agent }, (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const ok = spec.expectStatus === undefined ? status >= 200 && status < 300 : status === spec.expectStatus;
        res.once("end", () => done(String(status), ok));
        res.once("error", () => done("error", false));
      });
      req.once("error", () => done("error", false));
      req.end(body);
    });
  const start = performance.now();
  const end = start + seconds * 1000;
  const answers: Promise<void>[] = [];
  // The gap to the next arrival: exponential, of mean 1000 / arrivals ms.
  const gap = () => (-Math.log(1 - Math.random()) * 1000) / arrivals;
  for (let due = start + gap(); due < end; due += gap()) {
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(send(due));
  }
  await Promise.all(answers);
  agent.destroy();
  const percentile = percentilesOf(times);
  return {
    rps: times.length / seconds,
    p50: percentile(50),
    p99: percentile(99),
    total: times.length,
    failures,
    codes: [...codes].map(([code, count]) => `${code}:${count}`).join(" "),
  };
}

/** The p-th percentile (nearest rank) of response times in ms, to 0.1 ms; sorts `times` once. */
function percentilesOf(times: number[]): (p: number) => number {
  times.sort((a, b) => a - b);
  return (p) => Math.round((times[Math.max(0, Math.ceil((p / 100) * times.length) - 1)] ?? Number.NaN) * 10) / 10;
}

function expectedCount(result: autocannon.Result, status: number | undefined): number {
  if (status === undefined) return 0;
  return (result.statusCodeStats as Record<string, { count: number }> | undefined)?.[String(status)]?.count ?? 0;
}
