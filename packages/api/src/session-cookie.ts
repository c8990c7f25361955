import { sealData, unsealData } from "iron-session";

export const SESSION_COOKIE = "vexil-session";

export interface CookieSettings {
  /** iron-session password, 32 characters or more. */
  secret: string;
  secure: boolean;
  /** Lifetime of the cookie, matching the session's absolute lifetime. */
  maxAgeSeconds: number;
}

/** The cookie holds only the session id, sealed (encrypted and signed) so it cannot be forged. */
export async function sealSessionId(sessionId: string, settings: CookieSettings): Promise<string> {
  return sealData({ sid: sessionId }, { password: settings.secret, ttl: settings.maxAgeSeconds });
}

// The exact shape sealSessionId issues. iron-session reads the trailing version with parseInt, so
// without this "...~2" with anything appended would still open: a tampered cookie that works.
export const SEAL_SHAPE = /^Fe26\.2\*[\w*-]+~2$/;

/** The session id inside a cookie value, or null for a tampered, foreign or expired seal. */
export async function unsealSessionId(sealed: string, settings: CookieSettings): Promise<string | null> {
  if (!SEAL_SHAPE.test(sealed)) return null;
  try {
    const data = await unsealData<{ sid?: unknown }>(sealed, { password: settings.secret, ttl: settings.maxAgeSeconds });
    return typeof data.sid === "string" ? data.sid : null;
  } catch {
    return null;
  }
}

export function sessionCookieHeader(value: string, settings: CookieSettings, maxAgeSeconds = settings.maxAgeSeconds): string {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (settings.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookieHeader(settings: CookieSettings): string {
  return sessionCookieHeader("", settings, 0);
}

/** The session cookie's value from a Cookie header, if there is one. */
export function readSessionCookie(header: string | undefined): string | null {
  return readCookie(header, SESSION_COOKIE);
}

/** A cookie's value from a Cookie header, if there is one. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
