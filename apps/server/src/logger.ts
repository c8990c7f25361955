import pino, { type Logger } from "pino";

/** JSON lines for machines; pretty lines only when a person watches a terminal. */
export function createLogger(options: { level: string; pretty: boolean }): Logger {
  return pino({
    level: options.level,
    base: undefined,
    redact: { paths: ["password", "*.password", "secret", "*.secret", "cookie", "*.cookie"], censor: "[redacted]" },
    ...(options.pretty ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l" } } } : {}),
  });
}
