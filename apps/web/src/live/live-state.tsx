import { type LiveState, useLiveUpdates } from "./use-live-updates.ts";

const LABELS: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
};
const TITLES: Record<LiveState, string> = {
  connecting: "Connecting to the server's change notices",
  live: "Changes made by anyone show here as they happen",
  reconnecting: "The connection dropped; changes show again once it is back",
};

/** Keeps the open page current (useLiveUpdates), and says in the header whether it is. */
export function LiveUpdates() {
  const state = useLiveUpdates();
  return (
    <span className={`live live-${state}`} title={TITLES[state]} data-live={state}>
      {LABELS[state]}
    </span>
  );
}
