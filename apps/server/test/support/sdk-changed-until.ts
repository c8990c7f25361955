import { once } from "node:events";
import type { Unleash } from "unleash-client";

const STEP_DEADLINE_MS = 10_000;

/** Waits on the SDK's `changed` events until `holds` is true (checked first, so nothing is missed). */
export async function sdkChangedUntil(unleash: Unleash, holds: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + STEP_DEADLINE_MS;
  while (!holds()) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`the SDK never saw ${what}`);
    await Promise.race([
      once(unleash, "changed"),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the SDK never saw ${what}`)), left).unref()),
    ]);
  }
}
