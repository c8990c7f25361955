import type { ServerResponse } from "node:http";
import type { Logger } from "../context.ts";
import { toHttpFailure } from "../error-response.ts";

const TITLES: Record<number, string> = {
  400: "This sign-in cannot be finished",
  401: "Sign-in refused",
  403: "No access to Vexil",
  404: "Single sign-on is not set up",
  409: "Sign-in interrupted",
  503: "The identity provider cannot be reached",
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

// Nothing on the page runs or loads: no script, no style sheet, no form.
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A failed step of a browser's sign-in, answered as a page for the person in front of it
 * (docs/oidc.md#refusals): the status and sentence of docs/errors.md#error-names, and a link back
 * to the login page. An unexpected failure is logged under the id the page shows, as every 500.
 */
export function sendRefusalPage(res: ServerResponse, log: Logger, error: unknown, headers: Record<string, string | string[]> = {}): void {
  const failure = toHttpFailure(error);
  if (failure.unexpected) log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const title = TITLES[failure.status] ?? "Something went wrong";
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Vexil</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<main>
<h1>${title}</h1>
<p>${escapeHtml(failure.body.message)}</p>
<p><a href="/login">Back to the login page</a></p>
<p style="color: #555; font-size: 0.875rem">${escapeHtml(failure.body.name)} · ${failure.body.id}</p>
</main>
</body>
</html>
`;
  res.writeHead(failure.status, {
    ...failure.headers,
    ...headers,
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
    "content-security-policy": PAGE_CSP,
  });
  res.end(html);
}
