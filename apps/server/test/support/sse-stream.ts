import { request } from "undici";

/** One server-sent event as it came over the wire; a comment line is an event of its own here. */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The next event, or a rejection when the stream ends first or nothing comes within `deadlineMs`. */
  next(deadlineMs?: number): Promise<SseEvent>;
  /** Resolves when the response is over: "end" when the server ended it, "cut" when the connection broke or close() aborted it. */
  ended: Promise<"end" | "cut">;
  close(): void;
}

const DEADLINE_MS = 10_000;

function parse(block: string): SseEvent {
  const event: SseEvent = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) event.comment = line.slice(1).trim();
    else {
      const at = line.indexOf(":");
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (field === "id" || field === "event") event[field] = value;
      if (field === "data") event.data = event.data === undefined ? value : `${event.data}\n${value}`;
    }
  }
  return event;
}

/** Opens a raw SSE response (no SDK in between), to assert on exactly what the server sends. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res = await request(url, { headers, signal: abort.signal });
  const queue: SseEvent[] = [];
  const waiters: { resolve(e: SseEvent): void; reject(e: Error): void }[] = [];
  let done = false;
  let buffer = "";
  const ended = (async (): Promise<"end" | "cut"> => {
    try {
      for await (const chunk of res.body) {
        buffer += chunk.toString("utf8");
        let at: number;
        while ((at = buffer.indexOf("\n\n")) !== -1) {
          const event = parse(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
          const waiter = waiters.shift();
          if (waiter) waiter.resolve(event);
          else queue.push(event);
        }
      }
      return "end";
    } catch {
      return "cut";
    } finally {
      done = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error("the stream ended"));
    }
  })();
  return {
    status: res.statusCode,
    headers: res.headers,
    ended,
    next(deadlineMs = DEADLINE_MS) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (done) return Promise.reject(new Error("the stream ended"));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no event within ${deadlineMs} ms`)), deadlineMs);
        waiters.push({
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
      });
    },
    close: () => abort.abort(),
  };
}

/** The next event that is not a heartbeat comment. */
export async function nextEvent(stream: SseStream): Promise<SseEvent> {
  for (;;) {
    const event = await stream.next();
    if (event.comment === undefined || event.event !== undefined) return event;
  }
}
