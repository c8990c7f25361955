const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 hours ago", "never" for a flag no SDK has reported. */
export function lastSeenText(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const ago = now - Date.parse(iso);
  for (const [unit, ms] of UNITS) if (ago >= ms) return format.format(-Math.floor(ago / ms), unit);
  return "just now";
}
