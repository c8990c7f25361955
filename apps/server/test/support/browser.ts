import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startTestServer, type TestServer } from "./test-server.ts";

// Debian's chromium, which .ci/run installs. The browser tests are slow and run only with
// VEXIL_BROWSER_TESTS=1 (as CI sets it); asked for on a machine with no Chromium, they fail.
function chromiumPath(): string | undefined {
  if (process.env.VEXIL_BROWSER_TESTS !== "1") return undefined;
  const path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) => existsSync(candidate));
  if (!path) throw new Error("VEXIL_BROWSER_TESTS=1, but there is no /usr/bin/chromium to run the browser tests in");
  return path;
}
export const CHROMIUM = chromiumPath();

/** Where the console tests keep each page's screenshot (gitignored); the tests print it. */
export const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), "../../test-output/console");

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** A console test file's server, and Chromium where there is one; both closed after the file's tests. */
export async function startConsoleSuite(): Promise<{ srv: TestServer; browser: Browser | undefined }> {
  const srv = await startTestServer();
  const browser = CHROMIUM ? await launchChromium() : undefined;
  test.after(async () => {
    await browser?.close();
    await srv.close();
    await srv.db.close();
  });
  return { srv, browser };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Script errors and Content-Security-Policy violations, which Chromium reports as console errors. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    // A failed call is shown on the page; the browser's own line about its status is not a problem.
    if (message.type() === "error" && !/status of (4\d\d)/.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

export async function logIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel("Username or e-mail").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("button", { name: "Log out" }).waitFor();
}

/**
 * axe-core, run inside the page (through the debugging protocol, which the page's CSP does not
 * govern): no serious or critical violation. Then the page's screenshot is saved under its name.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    "axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })))",
  )) as { id: string; impact: string; targets: string[] }[];
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.equal(bad, [], `axe on ${name}: ${JSON.stringify(bad)}`);
}

/** A page script bundled as an app would bundle it for the browser (its imports resolved from the tests' packages). */
export async function browserBundle(contents: string): Promise<string> {
  const bundle = await build({
    stdin: { contents, resolveDir: dirname(fileURLToPath(import.meta.url)), loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return bundle.outputFiles[0]?.text ?? "";
}
