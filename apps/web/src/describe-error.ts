import { toVexilApiError } from "@vexil/client/trpc";

/** A wait in words: "45 seconds", "3 minutes", "2 hours". */
function waitInWords(seconds: number): string {
  const [amount, unit] =
    seconds < 90 ? [seconds, "second"] : seconds < 5400 ? [Math.ceil(seconds / 60), "minute"] : [Math.ceil(seconds / 3600), "hour"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

function retryAfterSeconds(error: unknown): number | undefined {
  const response = (error as { meta?: { response?: Response } }).meta?.response;
  const value = Number(response?.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** What went wrong, as a person reads it; the API's own message where it is already one. */
export function describeError(error: unknown): string {
  const api = toVexilApiError(error);
  if (!api) return "The server could not be reached. Check your connection and try again.";
  switch (api.name) {
    case "PasswordMismatch":
      return "Wrong username or password.";
    case "TooManyRequests": {
      const wait = retryAfterSeconds(error);
      if (!wait) return "Too many failed attempts. Wait a while before trying again.";
      const at = new Date(Date.now() + wait * 1000).toLocaleTimeString();
      return `Too many failed attempts. Try again in ${waitInWords(wait)} (at ${at}).`;
    }
    case "AuthenticationRequired":
      return "Your session has ended. Log in again.";
    case "ValidationError":
      return [api.message, ...(api.details ?? []).map((d) => `${d.path}: ${d.message}`)]
        .filter((line, i, all) => all.indexOf(line) === i)
        .join(" ");
    default:
      return api.message;
  }
}

export function isUnauthenticated(error: unknown): boolean {
  return toVexilApiError(error)?.status === 401;
}
