import { sealData, unsealData } from "iron-session";
import { type CookieSettings, readCookie, SEAL_SHAPE } from "../session-cookie.ts";

/** The browser's half of a sign-in under way (docs/oidc.md#the-flow): its state, sealed, sent only to /auth/oidc. */
const STATE_COOKIE = "vexil-oidc";

function stateCookie(value: string, settings: CookieSettings, maxAgeSeconds: number): string {
  // Lax: the provider's redirect back is a top-level GET from another site, which must carry it.
  const parts = [`${STATE_COOKIE}=${value}`, "Path=/auth/oidc", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (settings.secure) parts.push("Secure");
  return parts.join("; ");
}

export async function stateCookieHeader(state: string, settings: CookieSettings, ttlSeconds: number): Promise<string> {
  return stateCookie(await sealData({ state }, { password: settings.secret, ttl: ttlSeconds }), settings, ttlSeconds);
}

export function clearedStateCookieHeader(settings: CookieSettings): string {
  return stateCookie("", settings, 0);
}

/** The state the browser's cookie carries; null without one, or for a tampered, foreign or expired seal. */
export async function stateFromCookie(header: string | undefined, settings: CookieSettings): Promise<string | null> {
  const sealed = readCookie(header, STATE_COOKIE);
  if (!sealed || !SEAL_SHAPE.test(sealed)) return null;
  try {
    const data = await unsealData<{ state?: unknown }>(sealed, { password: settings.secret });
    return typeof data.state === "string" ? data.state : null;
  } catch {
    return null;
  }
}
