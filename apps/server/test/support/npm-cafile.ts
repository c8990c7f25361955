import { execFileSync } from "node:child_process";

/**
 * npm run with `--prefix` reads its global config from under that prefix, not from npm's own, and
 * npm run with another HOME misses the user's config: the machine's CA file (a proxy's CA, where
 * there is one) is read from npm as configured and passed on.
 */
export function npmCafileArgs(): string[] {
  let cafile = "";
  try {
    cafile = execFileSync("npm", ["config", "get", "cafile"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return [];
  }
  return cafile && cafile !== "null" && cafile !== "undefined" ? [`--cafile=${cafile}`] : [];
}
