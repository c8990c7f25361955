import type { QueryFilters } from "@tanstack/react-query";
import type { ConsoleChange, ConsoleNotice } from "./console-notice.ts";
import { trpc } from "../trpc.ts";

/** A flag's data as pages show it: the flag, the lists it is in, where segments are used. */
const flagData = (): QueryFilters[] => [
  trpc.features.pathFilter(),
  trpc.featureSearch.pathFilter(),
  trpc.featureTags.pathFilter(),
  trpc.projects.pathFilter(),
  trpc.segments.pathFilter(),
];

/**
 * The queries one change makes stale, by the kind of its event (docs/console-live.md#in-the-console),
 * or null for everything. Only the queries of the open page read again; the others when next shown.
 */
function filtersFor(change: ConsoleChange): QueryFilters[] | null {
  const { type } = change;
  // A change request's state shows on its page, the pending list and the inbox's counts; its apply writes flags (their own events).
  if (type.startsWith("change-request-"))
    return [
      trpc.changeRequests.pathFilter(),
      trpc.changeRequestInbox.pathFilter(),
      ...(change.feature ? [trpc.features.pathFilter()] : []),
    ];
  if (type.startsWith("feature-") || type.startsWith("strategy-")) return flagData();
  if (type.startsWith("segment-")) return flagData();
  if (type.startsWith("banner-")) return [trpc.banners.pathFilter()];
  if (type.startsWith("context-field-")) return [trpc.contextFields.pathFilter()];
  if (type.startsWith("api-token-") || type.startsWith("pat-")) return [trpc.apiTokens.pathFilter()];
  if (type.startsWith("user-")) return [trpc.users.pathFilter()];
  if (type.startsWith("addon-")) return [trpc.addons.pathFilter()];
  if (type.startsWith("tag-")) return [trpc.featureTags.pathFilter(), trpc.featureSearch.pathFilter()];
  return null;
}

/** Every query a notice makes stale, the event log's always among them; null for everything. */
export function staleQueries(notice: ConsoleNotice): QueryFilters[] | null {
  if ("everything" in notice) return null;
  const filters: QueryFilters[] = [trpc.events.pathFilter()];
  for (const change of notice.changes) {
    const more = filtersFor(change);
    if (!more) return null;
    filters.push(...more);
  }
  return filters;
}
