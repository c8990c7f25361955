// Baseline (c) of the frontend scenario: the official Node SDK (unleash-client) evaluating the same
// flags in this process, as a backend would, with no HTTP in between. It syncs from the server's
// client API with a client token of the same project and environment, then evaluates the whole
// flag set for one context after another (userId changing each time, as in the frontend requests)
// exactly as the frontend API does per request: each flag's state and variant in one call. Prints
// `{"setsPerS": ...}` and exits. Started by frontend-scenario.ts.
import { startUnleash } from "unleash-client";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmup = Number(process.env.BENCH_WARMUP_S ?? 2);
const unleash = await startUnleash({
  url: `${process.env.BENCH_SERVER}/api/`,
  appName: "bench-sdk",
  customHeaders: { Authorization: process.env.BENCH_CLIENT_TOKEN as string },
  disableMetrics: true,
  // One fetch is enough (0 would turn fetching off altogether); destroy() ends the timer.
  refreshInterval: 60_000,
});
const names = (unleash.getFeatureToggleDefinitions() ?? []).map((f) => f.name);

function evaluateFor(seconds: number): number {
  const end = performance.now() + seconds * 1000;
  let sets = 0;
  let on = 0;
  while (performance.now() < end) {
    const context = { userId: `u${Math.floor(Math.random() * 1e9)}`, appName: "bench-web", properties: { plan: "pro" } };
    const toggles: { name: string; variant: unknown }[] = [];
    for (const name of names) {
      const variant = unleash.forceGetVariant(name, context);
      if (variant.feature_enabled) toggles.push({ name, variant });
    }
    on += toggles.length;
    sets++;
  }
  return sets && on >= 0 ? sets / seconds : 0;
}

evaluateFor(warmup);
const setsPerS = evaluateFor(seconds);
unleash.destroy();
console.log(JSON.stringify({ setsPerS, flags: names.length }));
process.exit(0);
