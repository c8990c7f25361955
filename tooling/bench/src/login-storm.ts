import { fork } from "node:child_process";
import { once } from "node:events";

export interface LoginStorm {
  /** Successful logins so far. */
  ok(): Promise<number>;
  /** Stops the storm; resolves with the count of each status it saw, as "200:123 429:4". */
  stop(): Promise<string>;
}

/**
 * `loops` concurrent loops of correct logins against the server, run in a child process: on the
 * bench's own event loop, autocannon's timings would include the time its responses wait behind
 * the storm's, which measures the load generator rather than the server.
 */
export async function startLoginStorm(base: string, usernames: string[], password: string, loops: number): Promise<LoginStorm> {
  const child = fork(new URL("./login-storm-process.ts", import.meta.url), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, STORM_BASE: base, STORM_USERS: usernames.join(","), STORM_PASSWORD: password, STORM_LOOPS: String(loops) },
  });
  const ask = async (message: string) => {
    const reply = once(child, "message");
    child.send(message);
    return (await reply)[0] as { ok: number; codes?: string };
  };
  await once(child, "message");
  return {
    ok: async () => (await ask("ok")).ok,
    stop: async () => {
      const { codes } = await ask("stop");
      if (child.exitCode === null) await once(child, "exit");
      return codes ?? "";
    },
  };
}

/**
 * `loops` concurrent loops of correct logins, each loop from its own forwarded address (the server
 * trusts 127.0.0.1 as a proxy), so that the per-address limit is not what is measured.
 */
export function runLoginLoops(base: string, usernames: string[], password: string, loops: number) {
  const codes = new Map<string, number>();
  let ok = 0;
  let stopping = false;
  const loop = async (i: number) => {
    for (let n = 0; !stopping; n++) {
      const username = usernames[(i + n * loops) % usernames.length] as string;
      let code: string;
      try {
        const res = await fetch(`${base}/auth/simple/login`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `10.0.${i}.${(n % 250) + 1}` },
          body: JSON.stringify({ username, password }),
        });
        await res.arrayBuffer();
        code = String(res.status);
      } catch (error) {
        code = `error(${(error as Error).name})`;
      }
      if (code === "200") ok++;
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  };
  const running = Array.from({ length: loops }, (_, i) => loop(i));
  return {
    ok: () => ok,
    codes: () => [...codes].map(([c, k]) => `${c}:${k}`).join(" "),
    stop: async () => {
      stopping = true;
      await Promise.all(running);
    },
  };
}
