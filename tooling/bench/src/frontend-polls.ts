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

const OFREP_CONTEXT = { targetingKey: "u1", appName: "bench-web", plan: "pro" };

/**
 * One browser polling with an unchanged context: the same userId every time, as a page does between
 * changes (each a 304); and a server's OpenFeature provider evaluating one flag (a 200 every time).
 */
const POLLS = [
  { scenario: "GET frontend API, 304", method: "GET" as const, path: `/api/frontend?userId=u1&${FRONTEND_QUERY}`, context: undefined },
  { scenario: "POST OFREP bulk, 304", method: "POST" as const, path: "/ofrep/v1/evaluate/flags", context: OFREP_CONTEXT },
  // A flag with the rollout's constraint (the even ones), as an OFREP provider asks for one flag at a time.
  {
    scenario: "POST OFREP flag",
    method: "POST" as const,
    path: "/ofrep/v1/evaluate/flags/web-000002",
    context: OFREP_CONTEXT,
    status: 200,
  },
];

/** The target of a row: 0.5x of baseline (a) for OFREP's single flag, 0.7x for the repeated polls. */
export const pollTarget = (scenario: string) => (scenario === "POST OFREP flag" ? 0.5 : 0.7);

/**
 * The repeated poll of the frontend API and of OFREP's bulk evaluation (docs/sdk-protocols.md#poll-etags):
 * each request sends the ETag its server answered for that context, so each is a 304 that
 * evaluates nothing. Paired with (a) bare node:http answering the same 304 to the same request.
 * Then OFREP's single-flag evaluation, paired with (a) answering the same body.
 */
export async function runFrontendPolls(o: FrontendPollOptions): Promise<FrontendPollResult[]> {
  const results: FrontendPollResult[] = [];
  for (const poll of POLLS) {
    const body = poll.context === undefined ? undefined : { context: poll.context };
    const answered = async (target: Target) => {
      const first = await o.api(target.base, poll.method, poll.path, o.headers, body);
      if (poll.status === 200) return first.text;
      const etag = first.headers.get("etag") ?? "";
      // Measured only as a 304: a server that answered anything else would be measured doing something else.
      const again = await fetch(target.base + poll.path, {
        method: poll.method,
        headers: { ...o.headers, "if-none-match": etag, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (again.status !== 304) throw new Error(`${poll.scenario}: ${target.name} answered its own ETag with ${again.status}, not 304`);
      return etag;
    };
    // What each server answered: its ETag, or for the single flag its body.
    const answers = new Map<Target, string>([[o.server, await answered(o.server)]]);
    // The before server may predate the route (OFREP) or its 304: then the row is ours and (a)'s only.
    let before = o.before;
    if (before) {
      try {
        answers.set(before, await answered(before));
      } catch (error) {
        o.log(
          `${poll.scenario}: not compared, the before server cannot answer it (${error instanceof Error ? error.message.slice(0, 160) : String(error)})`,
        );
        before = undefined;
      }
    }
    // Baseline (a) answers our body, or our 304 to our ETag.
    const answer = poll.status === 200 ? { body: answers.get(o.server) } : { etag: answers.get(o.server) };
    await fetch(`${o.memory.base}/bench/poll`, {
      method: "PUT",
      body: JSON.stringify({ method: poll.method, path: poll.path, ...answer }),
    });
    const spec = (target: Target): LoadSpec => ({
      method: poll.method,
      path: () => poll.path,
      headers:
        poll.status === 200 ? o.headers : { ...o.headers, "if-none-match": answers.get(target) ?? (answers.get(o.server) as string) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      connections: o.connections,
      ...(poll.status === 200 ? {} : { expectStatus: 304 }),
    });
    o.log(`${poll.scenario} at ${o.flags} flags (the same context${poll.status === 200 ? "" : ", If-None-Match"})`);
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
