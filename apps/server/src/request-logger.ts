import type { Logger } from "@vexil/api";
import type { VexilResponse } from "./server-response.ts";

/**
 * A request's logger, whose child (bound to the request's id) is made when something logs: a child
 * serialises its bindings, which showed in the profile of SDK polls, where nothing logs at the usual
 * production level. A class, so that a request's context holds it as a plain field (an object literal
 * with getters, made per request, was 2-3% of a poll's CPU profile).
 */
export class RequestLogger implements Logger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly res: VexilResponse,
  ) {}

  #log(): Logger {
    this.#child ??= this.parent.child({ reqId: this.res.requestId });
    return this.#child;
  }

  info(...args: Parameters<Logger["info"]>): void {
    this.#log().info(...args);
  }

  warn(...args: Parameters<Logger["warn"]>): void {
    this.#log().warn(...args);
  }

  error(...args: Parameters<Logger["error"]>): void {
    this.#log().error(...args);
  }

  child(bindings: object): Logger {
    return this.#log().child(bindings);
  }

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled?.(level) ?? true;
  }
}
