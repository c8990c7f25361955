import { useInfiniteQuery } from "@tanstack/react-query";
import { DataTable } from "../data-table.tsx";
import { FormError } from "../form-error.tsx";
import { trpc, trpcClient } from "../trpc.ts";
import { EventChange } from "./event-change.tsx";

/** Events per page; "Older events" asks for the next page before the last id shown. */
const EVENT_PAGE = 50;

const where = (value: string | null) => value ?? <span className="muted">–</span>;

/** The event log for Admins: who changed what and when, newest first, older pages on request. */
export function EventsPage() {
  const events = useInfiniteQuery({
    // The procedure pages by `before`, not tRPC's `cursor`, so it has no infiniteQueryOptions: its path is the key.
    queryKey: trpc.events.list.pathKey(),
    queryFn: ({ pageParam }) => trpcClient.events.list.query({ limit: EVENT_PAGE, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    // A short page is the last one; otherwise the next starts below its oldest event.
    getNextPageParam: (page) => (page.events.length < EVENT_PAGE ? undefined : page.events.at(-1)?.id),
  });
  const shown = events.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <>
      <h1>Event log</h1>
      <FormError error={events.error} />
      <DataTable
        caption="Every change, newest first"
        columns={["When", "Who", "Type", "Project", "Environment", "Feature", "Change"]}
        busy={events.isPending || events.isFetchingNextPage}
        className="events"
      >
        {shown.map((event) => (
          <tr key={event.id} data-event-id={event.id}>
            <td className="nowrap">
              <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time>
            </td>
            <td className="nowrap">{event.createdBy}</td>
            <td className="nowrap">
              <code>{event.type}</code>
            </td>
            <td>{where(event.project)}</td>
            <td>{where(event.environment)}</td>
            <td>{where(event.featureName)}</td>
            <td>
              <EventChange event={event} />
            </td>
          </tr>
        ))}
      </DataTable>
      {events.hasNextPage ? (
        <button type="button" className="secondary" disabled={events.isFetchingNextPage} onClick={() => events.fetchNextPage()}>
          Older events
        </button>
      ) : (
        events.isSuccess && <p className="muted">{shown.length === 0 ? "Nothing has happened yet." : "There are no older events."}</p>
      )}
    </>
  );
}
