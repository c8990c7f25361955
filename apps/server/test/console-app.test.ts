import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CONSOLE_DIST } from "../src/console-app.ts";
import { startTestServer } from "./support/test-server.ts";

// `turbo run test` builds apps/web first (turbo.json), so the console is there to serve.
const srv = await startTestServer();
// The entry script that index.html loads; the lazily loaded pages are other files beside it.
const script = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(CONSOLE_DIST, "index.html"), "utf8"))?.[1] as string;

test("the console's paths answer with the app under a self-only CSP, revalidated on every load", async () => {
  for (const path of [
    "/",
    "/login",
    "/projects",
    "/projects/default/features/a%20b",
    "/change-requests",
    "/banners",
    "/users",
    "/groups",
    "/tokens?x=1",
    "/events",
    "/segments",
    "/unknown-flags",
  ]) {
    const res = await srv.call("GET", path);
    assert.is(res.status, 200, path);
    assert.is(res.headers["content-type"], "text/html; charset=utf-8", path);
    assert.is(res.headers["cache-control"], "no-cache", path);
    assert.match(String(res.headers["content-security-policy"]), /script-src 'self'(;|$)/);
    assert.match(String(res.json), new RegExp(`src="/assets/${script.replace(".", "\\.")}"`));
  }
});

test("hashed assets carry their content type and are cached for a year; HEAD has no body", async () => {
  const res = await srv.call("GET", `/assets/${script}`);
  assert.is(res.status, 200);
  assert.is(res.headers["content-type"], "text/javascript; charset=utf-8");
  assert.is(res.headers["cache-control"], "public, max-age=31536000, immutable");
  const head = await srv.call("HEAD", `/assets/${script}`);
  assert.is(head.status, 200);
  assert.is(head.headers["content-length"], res.headers["content-length"]);
  assert.is(head.json, undefined);
  const css = readdirSync(join(CONSOLE_DIST, "assets")).find((name) => name.endsWith(".css")) as string;
  assert.is((await srv.call("GET", `/assets/${css}`)).headers["content-type"], "text/css; charset=utf-8");
});

test("the first load is at most 150 KB of gzipped JavaScript; the editors, the segments page and the usage charts are chunks loaded later", () => {
  const html = readFileSync(join(CONSOLE_DIST, "index.html"), "utf8");
  // The entry and the chunks index.html preloads with it: what a first visit downloads.
  const first = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  const gzipped = first.reduce((sum, name) => sum + gzipSync(readFileSync(join(CONSOLE_DIST, "assets", name))).length, 0);
  console.log(
    `console first load: ${(gzipped / 1024).toFixed(1)} KB of JavaScript gzipped (${first.join(", ")}); the target is at most 150 KB`,
  );
  assert.ok(gzipped <= 150 * 1024, `${gzipped} bytes gzipped in ${first.join(", ")}`);
  const chunks = readdirSync(join(CONSOLE_DIST, "assets")).filter((name) => name.endsWith(".js"));
  for (const lazy of ["strategy-editor", "segments-page", "usage-section", "unknown-flags-page"]) {
    const chunk = chunks.find((name) => name.startsWith(`${lazy}-`));
    assert.ok(chunk, `${lazy} is a chunk of its own: ${chunks.join(", ")}`);
    assert.not.ok(first.includes(chunk as string), `${lazy} is not in the first load`);
  }
});

test("the console shadows nothing: API, auth, tRPC, docs, health and unknown paths answer as before", async () => {
  for (const path of [
    "/api/admin/nothing-here",
    "/api",
    "/auth/simple",
    "/projectsx",
    "/assets/missing.js",
    "/assets/../index.html",
    "/index.html",
  ]) {
    const res = await srv.call("GET", path);
    assert.is(res.status, 404, path);
    assert.is(res.json.name, "NotFoundError", path);
  }
  assert.is((await srv.call("GET", "/api/admin/projects")).status, 401);
  assert.is((await srv.call("GET", "/trpc/projects.list")).status, 401);
  assert.is((await srv.call("GET", "/health")).json.status, "ok");
  assert.is((await srv.call("GET", "/ready")).json.status, "ready");
  assert.match(String((await srv.call("GET", "/docs")).json), /swagger/i);
  const post = await srv.call("POST", "/", { body: {} });
  assert.is(post.status, 404);
  assert.is(post.json.name, "NotFoundError");
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
