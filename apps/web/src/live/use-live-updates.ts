import { useQueryClient } from "@tanstack/react-query";
import type { ConsoleNotice } from "./console-notice.ts";
import { useEffect, useState } from "react";
import { staleQueries } from "./invalidations.ts";

/** The console's event stream (GET /api/admin/console-events), opened with the session cookie. */
const STREAM_PATH = "/api/admin/console-events";
/** After a refusal (a 503 past the instance's stream limit, say) the browser gives up; the page tries again, less and less often. */
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

export type LiveState = "connecting" | "live" | "reconnecting";

/**
 * Keeps the page's data current while it is open (docs/console-live.md#in-the-console): each
 * notice of a change, made by anyone on any instance, makes the queries it touches stale, so the
 * page on screen reads them again. After a drop the browser reconnects by itself (the server asks
 * for 1 s); whatever changed meanwhile is unknown, so everything is read again once back.
 */
export function useLiveUpdates(): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RETRY_MS;
    let missed = false;
    const open = () => {
      source = new EventSource(STREAM_PATH);
      source.onopen = () => {
        delay = FIRST_RETRY_MS;
        setState("live");
        if (missed) void client.invalidateQueries();
        missed = false;
      };
      source.onmessage = (message) => {
        let filters: ReturnType<typeof staleQueries>;
        try {
          filters = staleQueries(JSON.parse(message.data) as ConsoleNotice);
        } catch {
          filters = null;
        }
        if (!filters) void client.invalidateQueries();
        else for (const filter of filters) void client.invalidateQueries(filter);
      };
      source.onerror = () => {
        missed = true;
        setState("reconnecting");
        // CONNECTING: the browser retries by itself. CLOSED: it was refused and will not.
        if (source?.readyState !== EventSource.CLOSED) return;
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      };
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [client]);
  return state;
}
