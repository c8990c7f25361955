import { useQuery } from "@tanstack/react-query";
import { trpc } from "../trpc.ts";

/**
 * The inbox's one query: the list page and the navigation's count read the same answer. Others'
 * reviews and applies reach it without a reload through the live updates (apps/web/src/live).
 */
export const inboxQueryOptions = () => trpc.changeRequestInbox.list.queryOptions(undefined);

/** How many change requests wait on the user, beside the navigation's Inbox link; nothing while there are none. */
export function InboxCount() {
  const inbox = useQuery(inboxQueryOptions());
  const waiting = (inbox.data?.review ?? 0) + (inbox.data?.apply ?? 0);
  if (waiting === 0) return null;
  return (
    <span className="count">
      {" "}
      {waiting}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}
