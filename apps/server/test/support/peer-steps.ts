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

/**
 * A step where Vexil answers otherwise than Unleash 8.2 by a decision: both statuses as recorded,
 * each asserted (so a change on either side fails), and `reason`, which cites the section of docs/
 * that explains the decision (`docs/<file>.md#<heading>`, checked by `pnpm lint`). `bodies`, when
 * given, picks a part of each reply and records what each server answers there, also asserted;
 * its `alike`, when given, picks what else of the two replies must be equal, as a step's `compare`.
 */
type Differs = (
  what: string,
  method: string,
  path: string,
  body: unknown,
  unleashStatus: number,
  vexilStatus: number,
  reason: string,
  bodies?: { pick: (reply: Reply) => unknown; unleash: unknown; vexil: unknown; alike?: (reply: Reply) => unknown },
) => void;

/**
 * A part of the served payload where the two servers differ by a decision: one feature (or one of
 * its fields) as each serves it after normalisation (`undefined`: not served), and why, citing docs/.
 */
interface PayloadDifference {
  feature: string;
  field?: string;
  unleash: unknown;
  vexil: unknown;
  reason: string;
}

/**
 * What each server serves its client token at GET /api/client/features, normalised (see
 * normaliseClientFeatures), must be equal; except for the `differences` listed, where each server
 * must serve what is recorded for it.
 */
type Served = (what: string, ...differences: PayloadDifference[]) => void;

export interface PeerSuite {
  peers: Peers;
  step: Step;
  differs: Differs;
  served: Served;
}

interface Row {
  method: string;
  path: string;
  what: string;
  unleash: number | string;
  vexil: number | string;
  /** "~": differs as recorded, by a decision; "*": not as recorded (the step fails); "": the same. */
  mark: "" | "~" | "*";
  /** Differs by a decision: the docs/ sections that explain it. */
  reasons?: string[];
}

/** A reason must cite the decision it follows: `docs/<file>.md#<heading>`. */
const CITATION = /\bdocs\/[\w-]+\.md#[\w-]+/;

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
  // Integrations refuse private addresses, as in production and in Unleash (peer-addons.test.ts).
  const [unleash, srv] = await Promise.all([startUnleashPeer(), startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" })]);
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
      const mark = u.status === unleashStatus && v.status === u.status && sameBody ? "" : "*";
      rows.push({ method, path, what, unleash: u.status, vexil: sameBody ? v.status : `${v.status}, body differs`, mark });
      assert.is(u.status, unleashStatus, `Unleash answered ${u.status}, recorded ${unleashStatus}: ${JSON.stringify(u.json)}`);
      const unleashSaw = JSON.stringify(compare ? compare(u) : u.json);
      assert.is(v.status, u.status, `Vexil answered ${v.status}: ${JSON.stringify(v.json)}; Unleash ${u.status}: ${unleashSaw}`);
      if (compare) assert.equal(compare(v), compare(u));
    });
  };

  const differs: Differs = (what, method, path, body, unleashStatus, vexilStatus, reason, bodies) => {
    cites(reason, what);
    test(`${method} ${path}: ${what} (differs by a decision: ${CITATION.exec(reason)![0]})`, async () => {
      const options = body === undefined ? {} : { body };
      const u = await peers.unleash.call(method, path, { ...options, headers: peers.unleash.admin });
      const v = await peers.vexil.call(method, path, { ...options, headers: peers.vexil.admin });
      const asRecorded =
        !bodies ||
        (same(bodies.pick(u), bodies.unleash) &&
          same(bodies.pick(v), bodies.vexil) &&
          (!bodies.alike || same(bodies.alike(v), bodies.alike(u))));
      rows.push({
        method,
        path,
        what,
        unleash: u.status,
        vexil: asRecorded ? v.status : `${v.status}, body not as recorded`,
        mark: u.status === unleashStatus && v.status === vexilStatus && asRecorded ? "~" : "*",
        reasons: [reason],
      });
      assert.is(u.status, unleashStatus, `Unleash answered ${u.status}, recorded ${unleashStatus}: ${JSON.stringify(u.json)}`);
      assert.is(v.status, vexilStatus, `Vexil answered ${v.status}, recorded ${vexilStatus}: ${JSON.stringify(v.json)}`);
      if (bodies) {
        assert.equal(bodies.pick(u), bodies.unleash, `Unleash's body: ${JSON.stringify(u.json)}`);
        assert.equal(bodies.pick(v), bodies.vexil, `Vexil's body: ${JSON.stringify(v.json)}`);
        if (bodies.alike) assert.equal(bodies.alike(v), bodies.alike(u));
      }
    });
  };

  const served: Served = (what, ...differences) => {
    const path = "/api/client/features";
    for (const d of differences) cites(d.reason, what);
    const label = differences.length
      ? ` (differs: ${differences.map((d) => `${d.feature}${d.field ? `.${d.field}` : ""}`).join(", ")})`
      : "";
    test(`GET ${path}: ${what}${label}`, async () => {
      const u = await peers.unleash.call("GET", path, { headers: { ...peers.unleash.client, ...SDK_HEADERS } });
      const v = await peers.vexil.call("GET", path, { headers: { ...peers.vexil.client, ...SDK_HEADERS } });
      const [nu, nv] = [normaliseClientFeatures(u.json), normaliseClientFeatures(v.json)];
      const asRecorded = differences.every((d) => same(partOf(nu, d), d.unleash) && same(partOf(nv, d), d.vexil));
      const samePayload = u.status === v.status && asRecorded && same(withoutParts(nu, differences), withoutParts(nv, differences));
      rows.push({
        method: "GET",
        path,
        what,
        unleash: u.status,
        vexil: samePayload ? v.status : `${v.status}, payload differs`,
        mark: !samePayload || u.status !== 200 ? "*" : differences.length ? "~" : "",
        ...(differences.length ? { reasons: differences.map((d) => d.reason) } : {}),
      });
      assert.is(u.status, 200, JSON.stringify(u.json));
      assert.is(v.status, 200, JSON.stringify(v.json));
      for (const d of differences) {
        const where = `${d.feature}${d.field ? `.${d.field}` : ""}`;
        assert.equal(partOf(nu, d), d.unleash, `Unleash serves ${where} as ${JSON.stringify(partOf(nu, d))}`);
        assert.equal(partOf(nv, d), d.vexil, `Vexil serves ${where} as ${JSON.stringify(partOf(nv, d))}`);
      }
      assert.equal(withoutParts(nv, differences), withoutParts(nu, differences));
    });
  };

  return { peers, step, differs, served };
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

/** Refuses, when the file is loaded, a difference whose reason cites no decision in docs/. */
function cites(reason: string, what: string): void {
  if (!CITATION.test(reason)) throw new Error(`"${what}": a deliberate difference must cite docs/<file>.md#<heading>, not "${reason}"`);
}

type Normalised = { features: Record<string, unknown>[] } & Record<string, unknown>;

/** One feature of a normalised payload, or one of its fields; `undefined` when not served. */
function partOf(payload: unknown, d: PayloadDifference): unknown {
  const feature = (payload as Normalised).features.find((f) => f.name === d.feature);
  return d.field ? feature?.[d.field] : feature;
}

/** The normalised payload with the listed features, or fields of them, taken out. */
function withoutParts(payload: unknown, differences: PayloadDifference[]): unknown {
  const p = payload as Normalised;
  const features = p.features
    .filter((f) => !differences.some((d) => d.feature === f.name && !d.field))
    .map((f) => {
      const fields = differences.filter((d) => d.feature === f.name && d.field).map((d) => d.field!);
      return Object.fromEntries(Object.entries(f).filter(([k]) => !fields.includes(k)));
    });
  return { ...p, features };
}

function printTable(title: string, rows: Row[]): void {
  const vexilCell = (r: Row) => `${r.vexil}${r.mark ? ` ${r.mark}` : ""}`;
  const width = (pick: (r: Row) => string, head: string) => Math.max(head.length, ...rows.map((r) => pick(r).length));
  const w = [
    width((r) => r.method, "method"),
    width((r) => r.path, "path"),
    width((r) => String(r.unleash), "Unleash"),
    width(vexilCell, "Vexil"),
  ];
  const line = (a: string, b: string, c: string, d: string, e: string) =>
    `${a.padEnd(w[0]!)}  ${b.padEnd(w[1]!)}  ${c.padEnd(w[2]!)}  ${d.padEnd(w[3]!)}  ${e}`;
  const deliberate = rows.filter((r) => r.mark === "~").length;
  const accidental = rows.filter((r) => r.mark === "*").length;
  const out = [
    `\n${title}: every step, Unleash 8.2's status and Vexil's (~ where they differ as recorded, by a decision cited in docs/; * where a step fails)`,
    line("method", "path", "Unleash", "Vexil", "step"),
  ];
  for (const r of rows) {
    const why = r.reasons ? ` [${[...new Set(r.reasons.map((reason) => CITATION.exec(reason)![0]))].join(", ")}]` : "";
    out.push(line(r.method, r.path, String(r.unleash), vexilCell(r), `${r.what}${why}`));
  }
  out.push(
    `${rows.length} steps: ${rows.length - deliberate - accidental} the same, ${deliberate} different by a decision, ${accidental} failing`,
  );
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
