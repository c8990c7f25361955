import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadSpec } from "./load.ts";
import { rssMb, type Target } from "./processes.ts";
import type { Measured } from "./report.ts";

/** One SSE client as cheap as it gets: a raw socket that counts `unleash-updated` frames and notes when each came. */
interface StreamClient {
  socket: Socket;
  arrivals: number[];
}

// A change waits this long at most for every stream; the ones that never got it are reported.
const DELIVERY_DEADLINE_MS = 30_000;
const OPEN_BATCH = 250;

const CONNECTED = Buffer.from("event: unleash-connected");
const UPDATED = Buffer.from("event: unleash-updated");

function openStream(port: number, token: string, onUpdate: () => void): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.setNoDelay(true);
    const client: StreamClient = { socket, arrivals: [] };
    let connected = false;
    // The end of the bytes read so far, so that a marker split between two reads is still found.
    let tail = Buffer.alloc(0);
    // Read as bytes: at 20,000 streams a string made of every read cost the bench's own core more
    // than the server's writes (the frames' arrival is what is timed).
    socket.on("data", (chunk: Buffer) => {
      const bytes = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      if (!connected) {
        if (!bytes.subarray(0, 12).equals(Buffer.from("HTTP/1.1 200"))) {
          socket.destroy();
          reject(new Error(`stream refused: ${bytes.subarray(0, 200).toString("latin1")}`));
          return;
        }
        const at = bytes.indexOf(CONNECTED);
        if (at === -1) {
          tail = Buffer.from(bytes.subarray(-4096));
          return;
        }
        connected = true;
        resolve(client);
        tail = Buffer.from(bytes.subarray(-(UPDATED.length - 1)));
        return;
      }
      let from = 0;
      let at: number;
      while ((at = bytes.indexOf(UPDATED, from)) !== -1) {
        client.arrivals.push(performance.now());
        onUpdate();
        from = at + UPDATED.length;
      }
      tail = Buffer.from(bytes.subarray(Math.max(from, bytes.length - (UPDATED.length - 1))));
    });
    socket.on("error", reject);
    socket.write(`GET /api/client/streaming HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${token}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/**
 * The open files this process may hold: its hard limit, which Node raises the soft limit to at
 * start (and which the server, started from it, inherits). Every stream holds one in each.
 */
function openFilesLimit(): number {
  try {
    const line = /^Max open files\s+\S+\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return line?.[1] === "unlimited" ? Number.POSITIVE_INFINITY : Number(line?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** Refuses, before any work, a stream count this process's open-file limit cannot hold. */
export function checkOpenFilesFor(streams: number): void {
  const needed = streams + 1_000;
  const limit = openFilesLimit();
  if (limit < needed)
    throw new Error(
      `${streams} streams need about ${needed} open files in the bench and in the server (one a stream each, and their own), and this shell allows ${limit}: run \`ulimit -n ${Math.max(needed, 65_536)}\` first (raising the hard limit takes root), or set BENCH_STREAMS lower`,
    );
}

export interface StreamingResult {
  streams: number;
  openSeconds: number;
  changes: number;
  /** Milliseconds from sending the admin write to each stream's frame, over every stream and change. */
  p50: number;
  p99: number;
  max: number;
  /** Streams that never got some change within the deadline (each makes the figure void). */
  missed: number;
  rssBeforeMb: number;
  rssWithStreamsMb: number;
  kbPerStream: number;
  /** The poll and the admin read, measured while the streams were open. */
  poll: Measured;
  adminRead: Measured;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const tenth = (n: number) => Math.round(n * 10) / 10;

/**
 * N streams on the server, then `changes` flips of one flag through the admin API, each timed
 * until every stream has its frame; then the poll and the admin read measured with them open.
 */
export async function measureStreams(options: {
  server: Target;
  streams: number;
  changes: number;
  sdkToken: string;
  /** Sends one change through the admin API (alternately on and off). */
  change: (i: number) => Promise<void>;
  measure: (spec: LoadSpec) => Promise<Measured>;
  pollSpec: LoadSpec;
  adminSpec: LoadSpec;
}): Promise<StreamingResult> {
  const { server, streams } = options;
  const port = Number(new URL(server.base).port);
  const pid = server.child.pid as number;
  await sleep(1_000);
  const rssBeforeMb = rssMb(pid);
  let updates = 0;
  let waiting: { target: number; resolve(): void } | undefined;
  const onUpdate = () => {
    updates++;
    if (waiting && updates >= waiting.target) waiting.resolve();
  };
  const clients: StreamClient[] = [];
  const openStarted = performance.now();
  try {
    while (clients.length < streams) {
      const batch = Math.min(OPEN_BATCH, streams - clients.length);
      clients.push(...(await Promise.all(Array.from({ length: batch }, () => openStream(port, options.sdkToken, onUpdate)))));
    }
    const openSeconds = (performance.now() - openStarted) / 1000;
    await sleep(2_000);
    const rssWithStreamsMb = rssMb(pid);

    const latencies: number[] = [];
    let missed = 0;
    for (let i = 0; i < options.changes; i++) {
      const target = updates + streams;
      const arrived = new Promise<void>((resolve) => {
        waiting = { target, resolve };
      });
      const before = clients.map((c) => c.arrivals.length);
      const sent = performance.now();
      await options.change(i);
      await Promise.race([arrived, sleep(DELIVERY_DEADLINE_MS)]);
      waiting = undefined;
      for (const [k, client] of clients.entries()) {
        const at = client.arrivals[before[k] as number];
        if (at === undefined) missed++;
        else latencies.push(at - sent);
      }
      // Streams that got nothing would count the next change's frame as this one's: resynchronise.
      updates = clients.reduce((sum, c) => sum + c.arrivals.length, 0);
    }
    latencies.sort((a, b) => a - b);
    const poll = await options.measure(options.pollSpec);
    const adminRead = await options.measure(options.adminSpec);
    return {
      streams,
      openSeconds,
      changes: options.changes,
      p50: tenth(percentile(latencies, 50)),
      p99: tenth(percentile(latencies, 99)),
      max: tenth(latencies.at(-1) ?? Number.NaN),
      missed,
      rssBeforeMb,
      rssWithStreamsMb,
      kbPerStream: ((rssWithStreamsMb - rssBeforeMb) * 1024) / streams,
      poll,
      adminRead,
    };
  } finally {
    for (const client of clients) client.socket.destroy();
    // Let the server see the closes before whatever is measured next.
    await sleep(1_000);
  }
}

export function formatStreamingTable(results: StreamingResult[]): string {
  const head = [
    "streams".padStart(7),
    "open s".padStart(7),
    "changes".padStart(7),
    "p50 ms".padStart(7),
    "p99 ms".padStart(7),
    "max ms".padStart(7),
    "missed".padStart(6),
    "RSS before".padStart(10),
    "RSS with".padStart(9),
    "KB/stream".padStart(9),
  ].join(" ");
  const lines = [head, "-".repeat(head.length)];
  for (const r of results) {
    lines.push(
      [
        String(r.streams).padStart(7),
        r.openSeconds.toFixed(1).padStart(7),
        String(r.changes).padStart(7),
        r.p50.toFixed(1).padStart(7),
        r.p99.toFixed(1).padStart(7),
        r.max.toFixed(1).padStart(7),
        String(r.missed).padStart(6),
        `${r.rssBeforeMb.toFixed(0)} MB`.padStart(10),
        `${r.rssWithStreamsMb.toFixed(0)} MB`.padStart(9),
        r.kbPerStream.toFixed(1).padStart(9),
      ].join(" "),
    );
  }
  return lines.join("\n");
}
