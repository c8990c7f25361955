import { test } from "uvu";
import { peerSuite } from "./support/peer-steps.ts";

// Unleash's addon API (docs/webhooks.md#the-api), sent to Unleash 8.2 and to Vexil alike: the same
// statuses, the same fields where both keep them. Nothing is delivered: no flag is created.
const suite = await peerSuite("peer addons");
if (suite) {
  const { step, differs } = suite;
  const webhook = {
    provider: "webhook",
    enabled: true,
    description: "CI",
    parameters: { url: "https://93.184.215.14/vexil-peer" },
    events: ["feature-created"],
  };
  const fields = (reply: { json: any }) => ({
    provider: reply.json.provider,
    enabled: reply.json.enabled,
    description: reply.json.description,
    events: reply.json.events,
    // A sensitive parameter is masked by both in reads.
    url: reply.json.parameters?.url,
  });
  // In the answers to writes, Unleash shows what was sent; Vexil masks it.
  const answeredUrl = {
    pick: (reply: { json: any }) => reply.json.parameters?.url,
    unleash: webhook.parameters.url,
    vexil: "*****",
    alike: (reply: { json: any }) => ({ ...fields(reply), url: undefined }),
  };

  step("no integrations yet; webhook and slack among the providers", "GET", "/api/admin/addons", undefined, 200, (r) => ({
    addons: r.json.addons,
    providers: r.json.providers
      .map((p: { name: string }) => p.name)
      .filter((n: string) => n === "webhook" || n === "slack")
      .sort(),
  }));
  differs(
    "create a webhook",
    "POST",
    "/api/admin/addons",
    webhook,
    201,
    201,
    "Vexil never echoes a sensitive parameter, not even in the answer to the write that sent it: docs/webhooks.md#sensitive-parameters",
    answeredUrl,
  );
  step("an unknown provider", "POST", "/api/admin/addons", { ...webhook, provider: "carrier-pigeon" }, 400);
  step("a webhook without its url", "POST", "/api/admin/addons", { ...webhook, parameters: {} }, 400);
  step("read it", "GET", "/api/admin/addons/1", undefined, 200, fields);
  differs(
    "change its events",
    "PUT",
    "/api/admin/addons/1",
    { ...webhook, events: ["feature-created", "feature-archived"] },
    200,
    200,
    "Vexil never echoes a sensitive parameter, not even in the answer to the write that sent it: docs/webhooks.md#sensitive-parameters",
    answeredUrl,
  );
  step("its deliveries", "GET", "/api/admin/addons/1/events", undefined, 200, (r) => Array.isArray(r.json.integrationEvents));
  step("an integration that does not exist", "GET", "/api/admin/addons/999", undefined, 404);
  step("delete it", "DELETE", "/api/admin/addons/1", undefined, 200);
  step("gone", "GET", "/api/admin/addons/1", undefined, 404);
  step("a receiver on a private address", "POST", "/api/admin/addons", { ...webhook, parameters: { url: "http://127.0.0.1:9/hook" } }, 400);
}

test.run();
