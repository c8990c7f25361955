export interface LoginStorm {
  /** Successful logins so far. */
  ok(): number;
  codes(): string;
  stop(): Promise<void>;
}

/**
 * `loops` concurrent loops of correct logins, each loop from its own forwarded address (the server
 * trusts 127.0.0.1 as a proxy), so that the per-address limit is not what is measured.
 */
export function startLoginStorm(base: string, usernames: string[], password: string, loops: number): LoginStorm {
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
