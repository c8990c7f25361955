import type { Locator, Page } from "playwright-core";
import * as assert from "uvu/assert";

// The browser's side runs in the page, so it is given as text: tsx would wrap its inner functions in a helper the
// page does not have. The rest is typed loosely, as the tests compile without the DOM library.

/**
 * Marks (`data-tab-stop`) every control in `root` a keyboard user must reach: the visible, enabled
 * native controls and ARIA widgets, and whatever looks clickable (a pointer cursor) without being
 * one. Radio buttons of one name are one stop, as Tab treats them. Returns each stop and what it is.
 */
const MARK_CONTROLS = `(root) => {
  const roles = ["button", "switch", "checkbox", "radio", "tab", "slider", "menuitem", "combobox", "link"];
  const selector = ["a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary", "[contenteditable=true]",
    "[tabindex]:not([tabindex='-1'])", ...roles.map((role) => "[role=" + role + "]")].join(", ");
  const visible = (el) => el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true });
  const usable = (el) => visible(el) && !el.matches(":disabled") && el.getAttribute("aria-disabled") !== "true" && !el.closest("[inert]");
  const controls = [...root.querySelectorAll(selector)].filter(usable);
  const pointer = (el) => !!el && getComputedStyle(el).cursor === "pointer";
  for (const el of root.querySelectorAll("*")) {
    // The top of a pointer-cursor subtree (the cursor is inherited) that is no control, holds none and is in none.
    if (!pointer(el) || pointer(el.parentElement) || el.matches("label, option") || !visible(el)) continue;
    if (controls.some((c) => c === el || c.contains(el) || el.contains(c))) continue;
    controls.push(el);
  }
  const text = (el) => String(el.getAttribute("aria-label") || el.labels?.[0]?.textContent || el.textContent || el.getAttribute("title") || "")
    .replace(/\\s+/g, " ").trim().slice(0, 60);
  return controls.map((el, i) => {
    const key = el.type === "radio" && el.name ? "radio:" + el.name : String(i);
    el.setAttribute("data-tab-stop", key);
    return { key, what: el.tagName.toLowerCase() + (el.type ? "[type=" + el.type + "]" : "") + ' "' + text(el) + '"' };
  });
}`;

/**
 * Tabs through the whole page from its start to its end, as a keyboard user would, and fails
 * naming each control in `scope` that focus never reached. Returns how many stops `scope` has.
 */
export async function assertTabReachesEveryControl(page: Page, scope: Locator): Promise<number> {
  await scope.evaluate((root: any) => root.setAttribute("data-tab-scope", ""));
  const marked = (await page.evaluate(`(${MARK_CONTROLS})(document.querySelector("[data-tab-scope]"))`)) as { key: string; what: string }[];
  const stops = new Map(marked.map((m) => [m.key, m.what]));
  // Focus starts on a stop put before everything else, so the first Tab goes where a fresh page's would.
  await page.evaluate(() => {
    const document = (globalThis as any).document;
    const start = document.createElement("span");
    start.tabIndex = 0;
    start.id = "tab-walk-start";
    document.body.prepend(start);
    start.focus();
  });
  const reached = new Set<string>();
  const seen = new Set<string>();
  let last = "";
  for (let presses = 0; presses < 1000; presses++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(() => {
      const document = (globalThis as any).document;
      const active = document.activeElement;
      if (!active || active === document.body) return null;
      active.dataset.tabWalk ??= String(Math.random());
      return { walk: active.dataset.tabWalk as string, stop: (active.getAttribute("data-tab-stop") as string | null) ?? "" };
    });
    // Past the last control focus leaves the page (or comes back round); a date picker keeps it across its parts.
    if (at === null || (seen.has(at.walk) && at.walk !== last)) break;
    seen.add((last = at.walk));
    if (at.stop) reached.add(at.stop);
  }
  await page.evaluate(() => {
    const document = (globalThis as any).document;
    document.getElementById("tab-walk-start")?.remove();
    for (const el of document.querySelectorAll("[data-tab-walk], [data-tab-stop], [data-tab-scope]")) {
      el.removeAttribute("data-tab-scope");
      el.removeAttribute("data-tab-walk");
      el.removeAttribute("data-tab-stop");
    }
  });
  const missed = [...stops].filter(([key]) => !reached.has(key)).map(([, what]) => what);
  assert.equal(missed, [], `Tab never reached: ${missed.join("; ")}`);
  return stops.size;
}

/** Presses Tab (or Shift+Tab, back) until `target` has the focus, at most 200 times: it is reached by keyboard alone. */
export async function tabTo(page: Page, target: Locator, key: "Tab" | "Shift+Tab" = "Tab"): Promise<void> {
  const presses = 200;
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el: any) => el === (globalThis as any).document.activeElement)) return;
  }
  assert.unreachable(`Tab did not reach ${target} in ${presses} presses`);
}
