import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ConsoleNotice, createConsoleEventHub } from "../src/index.ts";

// What open consoles are told (docs/console-live.md#the-notice), from the trigger's payload.
function heardBy(payloads: string[]): ConsoleNotice[] {
  const hub = createConsoleEventHub();
  const notices: ConsoleNotice[] = [];
  const stop = hub.subscribe((notice) => notices.push(notice));
  for (const payload of payloads) hub.heard(payload);
  stop();
  hub.heard(payloads[0] ?? "{}");
  return notices;
}

test("a notice names what each event touched; a change request's id is a number", () => {
  const payload = JSON.stringify({
    changes: [{ type: "change-request-approved", project: "p", environment: "staging", feature: null, changeRequestId: "12" }],
  });
  assert.equal(heardBy([payload]), [
    { changes: [{ type: "change-request-approved", project: "p", environment: "staging", feature: null, changeRequestId: 12 }] },
  ]);
});

test("a payload it cannot read, or the trigger's own 'everything', is everything; nobody hears after unsubscribing", () => {
  assert.equal(heardBy(["not json", '{"everything":true}', '{"changes":[{"project":"p"}]}', "{}"]), [
    { everything: true },
    { everything: true },
    { everything: true },
    { everything: true },
  ]);
});

test("back after a lost connection, consoles are told everything; the first listening is no loss", () => {
  const notices: ConsoleNotice[] = [];
  const hub = createConsoleEventHub();
  hub.subscribe((notice) => notices.push(notice));
  hub.resume();
  assert.equal(notices, []);
  hub.suspend();
  hub.resume();
  hub.resume();
  assert.equal(notices, [{ everything: true }]);
  assert.is(hub.subscribers, 1);
});

test.run();
