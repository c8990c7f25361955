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
  // Another Node's npm (Node 24 from the registry's binary) reads another global config: Node's own CA file is the fallback.
  if (!cafile || cafile === "null" || cafile === "undefined") cafile = process.env.NODE_EXTRA_CA_CERTS ?? "";
  return cafile ? [`--cafile=${cafile}`] : [];
}
