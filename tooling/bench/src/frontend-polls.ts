import { FRONTEND_QUERY } from "./frontend-flags.ts";
import type { LoadSpec } from "./load.ts";
import type { Target } from "./processes.ts";
import { type Measured, medianOf, type Row } from "./report.ts";

/** What the repeated polls need of the frontend scenario. */
export interface FrontendPollOptions {
  server: Target;
  before?: Target | undefined;
  memory: Target;
  flags: number;
  connections: number;
  /** The frontend token's headers. */
  headers: Record<string, string>;
  sampleInTurns(targets: Target[], spec: LoadSpec | ((target: Target) => LoadSpec)): Promise<Measured[][]>;
  api(
    base: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ text: string; json: any; headers: Headers }>;
  log(line: string): void;
}

export interface FrontendPollResult {
  row: Row;
  rounds: { after: Measured[]; before?: Measured[] };
}

/** One browser polling with an unchanged context: the same userId every time, as a page does between changes. */
const POLLS = [
  { scenario: "GET frontend API, 304", method: "GET" as const, path: `/api/frontend?userId=u1&${FRONTEND_QUERY}`, context: undefined },
  {
    scenario: "POST OFREP bulk, 304",
    method: "POST" as const,
    path: "/ofrep/v1/evaluate/flags",
    context: { targetingKey: "u1", appName: "bench-web", plan: "pro" },
  },
];

/**
 * The repeated poll of the frontend API and of OFREP's bulk evaluation (docs/sdk-protocols.md#poll-etags):
 * each request sends the ETag its server answered for that context, so each is a 304 that
 * evaluates nothing. Paired with (a) bare node:http answering the same 304 to the same request.
 */
export async function runFrontendPolls(o: FrontendPollOptions): Promise<FrontendPollResult[]> {
  const results: FrontendPollResult[] = [];
  for (const poll of POLLS) {
    const body = poll.context === undefined ? undefined : { context: poll.context };
    const answered = async (target: Target) => {
      const etag = (await o.api(target.base, poll.method, poll.path, o.headers, body)).headers.get("etag") ?? "";
      // Measured only as a 304: a server that answered anything else would be measured doing something else.
      const again = await fetch(target.base + poll.path, {
        method: poll.method,
        headers: { ...o.headers, "if-none-match": etag, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (again.status !== 304) throw new Error(`${poll.scenario}: ${target.name} answered its own ETag with ${again.status}, not 304`);
      return etag;
    };
    const etags = new Map<Target, string>([[o.server, await answered(o.server)]]);
    // The before server may predate the route (OFREP) or its 304: then the row is ours and (a)'s only.
    let before = o.before;
    if (before) {
      try {
        etags.set(before, await answered(before));
      } catch (error) {
        o.log(
          `${poll.scenario}: not compared, the before server cannot answer it (${error instanceof Error ? error.message.slice(0, 160) : String(error)})`,
        );
        before = undefined;
      }
    }
    await fetch(`${o.memory.base}/bench/poll`, {
      method: "PUT",
      body: JSON.stringify({ method: poll.method, path: poll.path, etag: etags.get(o.server) }),
    });
    const spec = (target: Target): LoadSpec => ({
      method: poll.method,
      path: () => poll.path,
      headers: { ...o.headers, "if-none-match": etags.get(target) ?? (etags.get(o.server) as string) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      connections: o.connections,
      expectStatus: 304,
    });
    o.log(`${poll.scenario} at ${o.flags} flags (the same context, If-None-Match)`);
    const [server, ...others] = await o.sampleInTurns(before ? [o.server, before, o.memory] : [o.server, o.memory], spec);
    const beforeRounds = before ? others.shift() : undefined;
    results.push({
      row: {
        scenario: poll.scenario,
        features: o.flags,
        server: medianOf(server as Measured[]),
        memory: medianOf(others[0] as Measured[]),
      },
      rounds: { after: server as Measured[], ...(beforeRounds ? { before: beforeRounds } : {}) },
    });
  }
  return results;
}
