import { test } from "uvu";
import * as assert from "uvu/assert";
import { adminToken, clientToken } from "./principals.ts";
import { type CallOptions, type Reply, startTestServer } from "./test-server.ts";
import { PEER_SKIP_REASON, PEER_TESTS, startUnleashPeer } from "./unleash-peer.ts";

/** One of the two servers a peer test drives, with an admin token and a client token of "default" in "development". */
interface Side {
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  admin: Record<string, string>;
  client: Record<string, string>;
}

interface Peers {
  unleash: Side;
  vexil: Side;
}

/**
 * Sends `method path body` as an admin to both servers. `unleashStatus` is Unleash 8.2's status
 * as recorded when the sequence was written (so a sequence gone wrong on the Unleash side fails
 * loudly); Vexil must answer the same. `compare`, when given, picks what else of the two replies
 * must be equal (a search's total and names, say).
 */
type Step = (what: string, method: string, path: string, body: unknown, unleashStatus: number, compare?: (reply: Reply) => unknown) => void;

/** What each server serves its client token at GET /api/client/features, normalised (see normaliseClientFeatures), must be equal. */
type Served = (what: string) => void;

export interface PeerSuite {
  peers: Peers;
  step: Step;
  served: Served;
}

interface Row {
  method: string;
  path: string;
  what: string;
  unleash: number | string;
  vexil: number | string;
}

/** Spec 5.2's headers: segments are served beside the features, not inlined (both servers must agree on either). */
const SDK_HEADERS = { "unleash-client-spec": "5.2.0", "unleash-appname": "vexil-peer" };

/**
 * A peer test file: Unleash 8.2 and Vexil started side by side, each step registered as a uvu test
 * that sends the same request to both, and a table of every step's statuses printed at the end. Without
 * VEXIL_PEER_TESTS=1 the file registers one empty test named after why it skips, and prints why.
 */
export async function peerSuite(title: string): Promise<PeerSuite | undefined> {
  if (!PEER_TESTS) {
    console.log(`${title}: ${PEER_SKIP_REASON}`);
    // A test that passes, as frontend-browser.test.ts does without Chromium: uvu counts a test.skip in
    // Skipped but not in Total, which would make CI's "failed" (Total - Passed - Skipped) negative.
    test(`${title}: ${PEER_SKIP_REASON}`, () => {});
    return undefined;
  }
  const [unleash, srv] = await Promise.all([startUnleashPeer(), startTestServer()]);
  console.log(
    `Unleash 8.2 at ${unleash.url}: install ${unleash.timings.installSeconds.toFixed(1)} s (0 when cached), start ${unleash.timings.startSeconds.toFixed(1)} s`,
  );
  const peers: Peers = {
    unleash,
    vexil: { call: srv.call, admin: await adminToken(srv), client: await clientToken(srv) },
  };
  const rows: Row[] = [];
  test.after(async () => {
    printTable(title, rows);
    await Promise.all([unleash.stop(), srv.close().then(() => srv.db.close())]);
  });

  const step: Step = (what, method, path, body, unleashStatus, compare) => {
    test(`${method} ${path}: ${what}`, async () => {
      const options = body === undefined ? {} : { body };
      const u = await peers.unleash.call(method, path, { ...options, headers: peers.unleash.admin });
      const v = await peers.vexil.call(method, path, { ...options, headers: peers.vexil.admin });
      const sameBody = !compare || same(compare(v), compare(u));
      rows.push({ method, path, what, unleash: u.status, vexil: sameBody ? v.status : `${v.status}, body differs` });
      assert.is(u.status, unleashStatus, `Unleash answered ${u.status}, recorded ${unleashStatus}: ${JSON.stringify(u.json)}`);
      const unleashSaw = JSON.stringify(compare ? compare(u) : u.json);
      assert.is(v.status, u.status, `Vexil answered ${v.status}: ${JSON.stringify(v.json)}; Unleash ${u.status}: ${unleashSaw}`);
      if (compare) assert.equal(compare(v), compare(u));
    });
  };

  const served: Served = (what) => {
    const path = "/api/client/features";
    test(`GET ${path}: ${what}`, async () => {
      const u = await peers.unleash.call("GET", path, { headers: { ...peers.unleash.client, ...SDK_HEADERS } });
      const v = await peers.vexil.call("GET", path, { headers: { ...peers.vexil.client, ...SDK_HEADERS } });
      const samePayload = u.status === v.status && same(normaliseClientFeatures(u.json), normaliseClientFeatures(v.json));
      rows.push({ method: "GET", path, what, unleash: u.status, vexil: samePayload ? v.status : `${v.status}, payload differs` });
      assert.is(u.status, 200, JSON.stringify(u.json));
      assert.is(v.status, 200, JSON.stringify(v.json));
      assert.equal(normaliseClientFeatures(v.json), normaliseClientFeatures(u.json));
    });
  };

  return { peers, step, served };
}

/** Deep equality as uvu's assert.equal has it (the order of an object's keys does not count), for the table. */
function same(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function printTable(title: string, rows: Row[]): void {
  const width = (pick: (r: Row) => string, head: string) => Math.max(head.length, ...rows.map((r) => pick(r).length));
  const w = [width((r) => r.method, "method"), width((r) => r.path, "path"), width((r) => String(r.unleash), "Unleash")];
  const line = (a: string, b: string, c: string, d: string, e: string) =>
    `${a.padEnd(w[0]!)}  ${b.padEnd(w[1]!)}  ${c.padEnd(w[2]!)}  ${d.padEnd(20)}  ${e}`;
  const out = [
    `\n${title}: every step, Unleash 8.2's status and Vexil's (* where they differ)`,
    line("method", "path", "Unleash", "Vexil", "step"),
  ];
  for (const r of rows) {
    const differs = String(r.unleash) !== String(r.vexil);
    out.push(line(r.method, r.path, String(r.unleash), `${r.vexil}${differs ? " *" : ""}`, r.what));
  }
  console.log(out.join("\n"));
}

/**
 * The served payload, with what legitimately differs between two servers taken out (docs/peer-tests.md#the-served-payload-normalised):
 * - `meta` (revisionId, etag, queryHash): each server's own revision counter and hash of it;
 * - a strategy's `id`: each server generates its own;
 * - a strategy's `sortOrder`: Vexil serves it, Unleash 8.2 does not; SDKs evaluate strategies in the
 *   order of the array, which is compared;
 * - a strategy's empty `segments`: Vexil serves `[]`, Unleash 8.2 leaves the field out; SDKs read both as none;
 * - a dependency's empty `variants`: Unleash 8.2 serves `[]`, Vexil leaves the field out; SDKs read both as "any variant".
 * Features and segments are sorted by name; the order of a feature's strategies is kept.
 */
function normaliseClientFeatures(body: any): unknown {
  if (!body || typeof body !== "object") return body;
  const { meta: _meta, features, segments, ...rest } = body;
  const dependency = ({ variants, ...d }: any) => (variants?.length ? { ...d, variants } : d);
  const strategy = ({ id: _id, sortOrder: _sortOrder, segments: ids, ...s }: any) => (ids?.length ? { ...s, segments: ids } : s);
  return {
    ...rest,
    features: [...(features ?? [])]
      .map((f: any) => ({
        ...f,
        strategies: (f.strategies ?? []).map(strategy),
        ...(f.dependencies ? { dependencies: f.dependencies.map(dependency) } : {}),
      }))
      .sort((a: any, b: any) => String(a.name).localeCompare(String(b.name))),
    segments: [...(segments ?? [])].sort((a: any, b: any) => String(a.name).localeCompare(String(b.name))),
  };
}
