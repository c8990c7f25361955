import { ValidationError } from "../errors/domain-error.ts";

const BASE = "http://vexil.invalid";

/**
 * Where the browser goes after signing in: a path of this origin, never another site
 * (docs/oidc.md#returnto). `//evil.com`, `/\evil.com` (which browsers read as `//`), absolute URLs
 * and control characters are refused; the console's `/` is the default.
 */
export function checkedReturnTo(value: string | undefined): string {
  if (value === undefined || value === "") return "/";
  const refuse = () => {
    throw new ValidationError("returnTo must be a path of this server, such as /projects; it cannot lead to another site.", [
      { path: "returnTo", message: "not a path of this origin" },
    ]);
  };
  // A backslash or a control character is read differently by different parsers: none is needed in a path of ours.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (value.length > 2000 || !value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) refuse();
  const url = new URL(value, BASE);
  if (url.origin !== BASE) refuse();
  return `${url.pathname}${url.search}${url.hash}`;
}
