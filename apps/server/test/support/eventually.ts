import type { TestServer } from "./test-server.ts";

const DEADLINE_MS = 5_000;

/**
 * Polls until `check` holds, failing with `what` when `deadlineMs` passes: for what happens in
 * the background (a scheduler, a notice from the database), never a fixed sleep.
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, deadlineMs = DEADLINE_MS): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Calls GET `path` until it answers `status`, for changes that reach an instance shortly after
 * commit (a credential cache hears of them through the database) rather than with the commit.
 */
export async function eventuallyStatus(srv: TestServer, path: string, headers: Record<string, string>, status: number): Promise<void> {
  let last = 0;
  await until(
    async () => (last = (await srv.call("GET", path, { headers })).status) === status,
    `GET ${path} to answer ${status} (last ${last})`,
  );
}
