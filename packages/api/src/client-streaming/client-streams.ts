import type { ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { ClientDeltaEvent, ClientScopeHub, ClientFeatureUpdate } from "@vexil/services";
import { type ClientQuery, clientQueryKey, narrowEvents, narrowHydration } from "../client-query.ts";
import { detachStreamSocket } from "./detach-stream-socket.ts";

export interface ClientStreamsOptions {
  /** Streams this instance keeps open; past it an SDK is told to poll instead. */
  maxConnections: number;
  /** How often a comment goes down every stream, so that proxies keep idle connections. */
  heartbeatMs: number;
}

export interface ClientStreams {
  /**
   * Answers `res` as a stream of the hub's changes, narrowed by `query`: first a hydration (or,
   * with a `lastEventId` the hub still has, only what changed since), then every change.
   */
  open(
    res: ServerResponse,
    hub: ClientScopeHub,
    query: ClientQuery,
    lastEventId: number | undefined,
    credentialTags?: readonly string[],
  ): Promise<void>;
  /**
   * Keeps `res`, an event stream of another protocol (OFREP's) that writes its own events, among
   * this instance's streams: counted against the limit, sent heartbeats, ended at close. False
   * (and `res` left alone) past the limit or while closing.
   */
  hold(res: ServerResponse, credentialTags?: readonly string[]): boolean;
  /**
   * Ends the streams opened with a credential that depends on `tag` (as the database announces a
   * change to a token or user, see credential-tags.ts): a revoked one gets a 401 when its SDK
   * reconnects, one still good carries on from its last event.
   */
  revoke(tag: string): void;
  /** Open streams. */
  readonly size: number;
  /** Ends every stream (the SDKs reconnect, to another instance if this one is going) and takes no more. */
  close(): void;
}

const SSE_HEADERS = { "content-type": "text/event-stream", "x-accel-buffering": "no", connection: "keep-alive" };
// A client that reads nothing for this much gets cut off; it resumes from its last event id.
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * An event written to many streams: its bytes, and the same bytes framed as one HTTP/1.1 chunk,
 * made once for all of them (docs/sdk-protocols.md#streams-at-scale).
 */
class SharedFrame {
  readonly bytes: Buffer;
  #chunk: Buffer | undefined;
  constructor(text: string) {
    this.bytes = Buffer.from(text);
  }
  get chunk(): Buffer {
    this.#chunk ??= Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`), this.bytes, Buffer.from("\r\n")]);
    return this.#chunk;
  }
}

const HEARTBEAT = new SharedFrame(": heartbeat\n\n");

/** One SSE event; `data` has no newline (it is JSON). */
const sseFrame = (event: string, data: string, id?: number) =>
  new SharedFrame(`${id !== undefined ? `id: ${id}\n` : ""}event: ${event}\ndata: ${data}\n\n`);
const updatedFrame = (revision: number, events: ClientDeltaEvent[]) => sseFrame("unleash-updated", JSON.stringify({ events }), revision);

/**
 * Writes a shared frame to a stream whose headers are sent. A chunked response takes the frame's
 * ready chunk straight on its socket, one write, instead of the four (size, CRLF, data, CRLF) and
 * the cork that `res.write` makes per call, which a broadcast pays once per stream. The response
 * owns its socket (`res.socket` is set only on the response being sent) and has nothing queued
 * once its headers are flushed, so the bytes go out in order.
 */
function writeFrame(res: ServerResponse, frame: SharedFrame): void {
  const socket = res.socket;
  if (res.chunkedEncoding && res.headersSent && !res.writableEnded && socket && !socket.destroyed) socket.write(frame.chunk);
  else res.write(frame.bytes);
}

/**
 * A stream: its socket, once taken out of node:http (the bytes on the wire are those the response
 * would write), or the response itself where that could not be done.
 */
type Stream = Socket | ServerResponse;
// The detached streams of HTTP/1.0 clients, whose bodies are not chunked (rare: a set, not a field per stream).
const unchunked = new WeakSet<Socket>();
// The last chunk of a chunked body, which ends a detached stream as `res.end()` would.
const LAST_CHUNK = Buffer.from("0\r\n\r\n");

const isSocket = (stream: Stream): stream is Socket => stream instanceof Socket;

function writeTo(stream: Stream, frame: SharedFrame): void {
  if (!isSocket(stream)) writeFrame(stream, frame);
  else if (!stream.destroyed && stream.writable) stream.write(unchunked.has(stream) ? frame.bytes : frame.chunk);
}

function endStream(stream: Stream): void {
  if (!isSocket(stream)) stream.end();
  else if (unchunked.has(stream)) stream.end();
  else stream.end(LAST_CHUNK);
}

/** Streams of one hub and one narrowing: each change is rendered once and written to all of them. */
interface Group {
  streams: Set<Stream>;
  unsubscribe(): void;
  hydration?: { revision: number; frame: SharedFrame };
}

/**
 * The open streams of this instance. Per stream it keeps only its socket in a set: the frames
 * are shared, the heartbeat is one timer for all.
 */
export function createClientStreams(options: ClientStreamsOptions): ClientStreams {
  const groups = new Map<ClientScopeHub, Map<string, Group>>();
  const held = new Set<ServerResponse>();
  const byTag = new Map<string, Set<() => void>>();
  let open = 0;

  /** Keeps `end` under each tag until the returned function forgets it. */
  const watch = (tags: readonly string[], end: () => void): (() => void) => {
    for (const tag of tags) {
      let ends = byTag.get(tag);
      if (!ends) byTag.set(tag, (ends = new Set()));
      ends.add(end);
    }
    return () => {
      for (const tag of tags) {
        const ends = byTag.get(tag);
        ends?.delete(end);
        if (ends?.size === 0) byTag.delete(tag);
      }
    };
  };
  let closing = false;

  const write = (stream: Stream, frame: SharedFrame) => {
    writeTo(stream, frame);
    if (stream.writableLength > MAX_BUFFERED_BYTES) stream.destroy();
  };

  const heartbeat = setInterval(() => {
    for (const byQuery of groups.values()) for (const group of byQuery.values()) for (const res of group.streams) write(res, HEARTBEAT);
    for (const res of held) write(res, HEARTBEAT);
  }, options.heartbeatMs);
  heartbeat.unref();

  const groupFor = (hub: ClientScopeHub, query: ClientQuery): Group => {
    let byQuery = groups.get(hub);
    if (!byQuery) groups.set(hub, (byQuery = new Map()));
    const key = clientQueryKey(query);
    let group = byQuery.get(key);
    if (group) return group;
    const streams = new Set<Stream>();
    const onUpdate = (update: ClientFeatureUpdate) => {
      const events = narrowEvents(update.events, query);
      if (events.length === 0) return;
      const frame = updatedFrame(update.revision, events);
      for (const res of streams) write(res, frame);
    };
    const unsubscribe = hub.subscribe(onUpdate);
    group = {
      streams,
      unsubscribe: () => {
        unsubscribe();
        byQuery.delete(key);
        if (byQuery.size === 0) groups.delete(hub);
      },
    };
    byQuery.set(key, group);
    return group;
  };

  const hydrationFrame = (group: Group, hub: ClientScopeHub, query: ClientQuery): SharedFrame => {
    if (group.hydration?.revision !== hub.revision) {
      const hydration = narrowHydration(hub.hydration(), query);
      group.hydration = {
        revision: hub.revision,
        frame: sseFrame("unleash-connected", JSON.stringify({ events: [hydration] }), hub.revision),
      };
    }
    return group.hydration.frame;
  };

  return {
    async open(res, hub, query, lastEventId, credentialTags = []) {
      if (closing || open >= options.maxConnections) {
        // The Node SDK switches to polling at once when a stream says so (streaming-fetcher's fetch-mode event).
        res.writeHead(200, { ...SSE_HEADERS, "fetch-mode": "polling" });
        res.end(sseFrame("fetch-mode", "polling").bytes);
        return;
      }
      open++;
      let counted = true;
      const release = () => {
        if (counted) open--;
        counted = false;
      };
      try {
        await hub.ready();
      } catch (error) {
        release();
        throw error;
      }
      if (closing || res.destroyed || !res.socket || res.socket.destroyed) {
        release();
        res.end();
        return;
      }
      // From here to the subscription nothing awaits, so no change falls between the first frame and the next.
      const group = groupFor(hub, query);
      res.writeHead(200, SSE_HEADERS);
      const delta = hub.deltaSince(lastEventId);
      if (delta.kind === "hydration") res.write(hydrationFrame(group, hub, query).bytes);
      else if (delta.kind === "events") {
        const events = narrowEvents(delta.events, query);
        if (events.length) res.write(updatedFrame(delta.revision, events).bytes);
      }
      res.flushHeaders();
      const chunked = res.chunkedEncoding;
      const stream: Stream = detachStreamSocket(res) ?? res;
      if (isSocket(stream) && !chunked) unchunked.add(stream);
      group.streams.add(stream);
      const forget = watch(credentialTags, () => endStream(stream));
      stream.on("close", () => {
        forget();
        release();
        group.streams.delete(stream);
        if (group.streams.size === 0) group.unsubscribe();
      });
    },
    hold(res, credentialTags = []) {
      if (closing || open >= options.maxConnections) return false;
      open++;
      held.add(res);
      const forget = watch(credentialTags, () => res.end());
      res.on("close", () => {
        forget();
        open--;
        held.delete(res);
      });
      return true;
    },
    revoke(tag) {
      for (const end of [...(byTag.get(tag) ?? [])]) end();
    },
    get size() {
      return open;
    },
    close() {
      closing = true;
      clearInterval(heartbeat);
      for (const byQuery of [...groups.values()])
        for (const group of [...byQuery.values()]) for (const stream of [...group.streams]) endStream(stream);
      for (const res of [...held]) res.end();
    },
  };
}
