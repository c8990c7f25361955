import { test } from "uvu";
import { peerSuite } from "./support/peer-steps.ts";
import type { Reply } from "./support/test-server.ts";

// A flag's life (issue 24) sent to Unleash 8.2 and to Vexil alike: flags with a parent and a
// dependent child, tag types and tags, feature types' lifetimes, stale and not stale, a PATCH,
// archive, revive, search and delete for good, with the served payload after each stage. Where
// Vexil answers otherwise by a decision, the step records both answers and cites the decision
// (docs/peer-tests.md#where-vexil-answers-otherwise-by-a-decision lists them).
const suite = await peerSuite("peer lifecycle");
if (suite) {
  const { step, differs, served } = suite;
  const project = "/api/admin/projects/default";
  const feature = (name: string) => `${project}/features/${name}`;
  const development = (name: string) => `${feature(name)}/environments/development`;
  const rollout = (name: string, percent: number) => ({
    name: "flexibleRollout",
    parameters: { rollout: String(percent), stickiness: "default", groupId: name },
    constraints: [],
  });
  const tags = (name: string) => `/api/admin/features/${name}/tags`;
  const search = (query: string) => `/api/admin/search/features?${query}`;
  const body = (reply: Reply) => reply.json;
  const found = (reply: Reply) => ({ total: reply.json?.total, names: reply.json?.features?.map((f: { name: string }) => f.name) });
  const tagList = (reply: Reply) => reply.json?.tags;
  const typesById = (reply: Reply) =>
    [...(reply.json?.types ?? [])].sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
  const metadata = (reply: Reply) => {
    const { name, description, type, stale, impressionData, project: projectId, archived } = reply.json ?? {};
    return { name, description, type, stale, impressionData, project: projectId, archived };
  };

  // Flags: a parent with a dependent child, and three others; all but one switched on in development.
  step("create the parent", "POST", `${project}/features`, { name: "checkout", description: "New checkout", type: "release" }, 201);
  step(
    "create the child",
    "POST",
    `${project}/features`,
    { name: "checkout-coupons", description: "Coupons at checkout", type: "experiment" },
    201,
  );
  step("create a third flag", "POST", `${project}/features`, { name: "dark-mode", description: "Dark theme", type: "release" }, 201);
  step(
    "create an operational flag",
    "POST",
    `${project}/features`,
    { name: "ops-throttle", description: "Throttle", type: "operational" },
    201,
  );
  step(
    "create a flag to retire",
    "POST",
    `${project}/features`,
    { name: "old-banner", description: "Spring banner", type: "release" },
    201,
  );
  step("the child depends on the parent", "POST", `${feature("checkout-coupons")}/dependencies`, { feature: "checkout" }, 200);
  differs(
    "a child cannot be a parent",
    "POST",
    `${feature("dark-mode")}/dependencies`,
    { feature: "checkout-coupons" },
    403,
    400,
    "a 403 says a permission is missing: docs/peer-tests.md#where-vexil-answers-otherwise-by-a-decision",
  );
  for (const [name, percent] of [
    ["checkout", 50],
    ["checkout-coupons", 100],
    ["dark-mode", 100],
    ["old-banner", 100],
  ] as const) {
    step(`a rollout of ${percent}% for ${name}`, "POST", `${development(name)}/strategies`, rollout(name, percent), 200);
    step(`switch ${name} on`, "POST", `${development(name)}/on`, undefined, 200);
  }
  step("create a flag to switch on bare", "POST", `${project}/features`, { name: "welcome-tour", description: "First-visit tour" }, 201);
  step("switch it on with no strategy", "POST", `${development("welcome-tour")}/on`, undefined, 200);
  served("six flags, the child with its dependency", {
    feature: "welcome-tour",
    field: "strategies",
    unleash: [
      {
        name: "flexibleRollout",
        constraints: [],
        parameters: { groupId: "welcome-tour", rollout: "100", stickiness: "default" },
        variants: [],
      },
    ],
    vexil: [],
    reason: "on with no strategies is on for everyone, no strategy is added: docs/flag-model.md#features",
  });
  step("archive the bare one", "DELETE", feature("welcome-tour"), undefined, 202);
  served("five flags");

  // Tag types and tags.
  step(
    "create a tag type",
    "POST",
    "/api/admin/tag-types",
    { name: "team", description: "Owning team", icon: "group" },
    201,
    (r) => r.json?.name,
  );
  step("tag the parent", "POST", tags("checkout"), { type: "team", value: "payments" }, 201, body);
  step("tag the parent again", "POST", tags("checkout"), { type: "team", value: "payments" }, 201, body);
  step("tag the child", "POST", tags("checkout-coupons"), { type: "simple", value: "beta" }, 201, body);
  step("the parent's tags", "GET", tags("checkout"), undefined, 200, tagList);
  step(
    "replace a tag of the child",
    "PUT",
    tags("checkout-coupons"),
    { addedTags: [{ type: "team", value: "payments" }], removedTags: [{ type: "simple", value: "beta" }] },
    200,
    tagList,
  );
  step("the child's tags", "GET", tags("checkout-coupons"), undefined, 200, tagList);
  step("untag the child", "DELETE", `${tags("checkout-coupons")}/team/payments`, undefined, 200);
  step("untag a tag the child does not carry", "DELETE", `${tags("checkout-coupons")}/team/payments`, undefined, 200);
  step(
    "tag two flags at once",
    "PUT",
    `${project}/tags`,
    { features: ["dark-mode", "ops-throttle"], tags: { addedTags: [{ type: "simple", value: "ui" }], removedTags: [] } },
    200,
  );
  step("dark-mode's tags", "GET", tags("dark-mode"), undefined, 200, tagList);
  step("search by tag", "GET", search("tag=INCLUDE:simple:ui"), undefined, 200, found);
  served("tags are not served");

  // Feature types and their lifetimes.
  step("the feature types", "GET", "/api/admin/feature-types", undefined, 200, typesById);
  step("operational flags live 30 days", "PUT", "/api/admin/feature-types/operational/lifetime", { lifetimeDays: 30 }, 200, body);
  step("an unknown feature type", "PUT", "/api/admin/feature-types/ghost/lifetime", { lifetimeDays: 30 }, 404);
  differs(
    "a lifetime as a string",
    "PUT",
    "/api/admin/feature-types/release/lifetime",
    { lifetimeDays: "5" },
    200,
    400,
    "a lifetime is a number: docs/flag-model.md#stale-flags-and-feature-types",
  );
  step("release flags live 40 days again", "PUT", "/api/admin/feature-types/release/lifetime", { lifetimeDays: 40 }, 200, body);
  step("the feature types after", "GET", "/api/admin/feature-types", undefined, 200, typesById);
  step("search by type", "GET", search("type=IS:release"), undefined, 200, found);

  // Stale and not stale.
  step("mark two flags stale", "POST", `${project}/stale`, { features: ["dark-mode", "ops-throttle"], stale: true }, 202);
  step("search the stale ones", "GET", search("state=IS:stale"), undefined, 200, found);
  served("two stale flags");
  differs(
    "a stale batch naming an unknown flag",
    "POST",
    `${project}/stale`,
    { features: ["dark-mode", "ghost"], stale: false },
    202,
    404,
    "a typo is not a silent success: docs/flag-model.md#stale-flags-and-feature-types",
  );
  step("dark-mode is not stale", "POST", `${project}/stale`, { features: ["dark-mode"], stale: false }, 202);
  step("search the active ones", "GET", search("state=IS:active"), undefined, 200, found);
  served("one stale flag");

  // PATCH of a feature.
  step(
    "patch a description and the stale mark",
    "PATCH",
    feature("ops-throttle"),
    [
      { op: "replace", path: "/description", value: "Throttle the API" },
      { op: "replace", path: "/stale", value: false },
    ],
    200,
    metadata,
  );
  differs(
    "patch a member that cannot be written",
    "PATCH",
    feature("ops-throttle"),
    [{ op: "replace", path: "/name", value: "renamed" }],
    200,
    400,
    "an operation that would be ignored is refused: docs/flag-model.md#stale-flags-and-feature-types",
  );
  step("the patched flag", "GET", feature("ops-throttle"), undefined, 200, metadata);
  step("search by description", "GET", search("query=throttle"), undefined, 200, found);
  served("after the patch");

  // Archive, one and in bulk.
  const kept = "dependencies are kept through an archive: docs/flag-model.md#archive-revive-delete";
  const deletedDependencies = (reply: Reply) => reply.json?.hasDeletedDependencies;
  step(
    "parents with live children",
    "POST",
    `${project}/archive/validate`,
    { features: ["checkout"] },
    200,
    (r) => r.json?.parentsWithChildFeatures,
  );
  differs(
    "would archiving the parent delete dependencies",
    "POST",
    `${project}/archive/validate`,
    { features: ["checkout"] },
    200,
    200,
    kept,
    {
      pick: deletedDependencies,
      unleash: true,
      vexil: false,
    },
  );
  differs(
    "archive the parent while its child is live",
    "DELETE",
    feature("checkout"),
    undefined,
    403,
    409,
    "a conflict with stored data, not with permissions: docs/flag-model.md#archive-revive-delete",
  );
  differs(
    "validate archiving both",
    "POST",
    `${project}/archive/validate`,
    { features: ["checkout", "checkout-coupons"] },
    200,
    200,
    kept,
    {
      pick: body,
      unleash: { parentsWithChildFeatures: [], hasDeletedDependencies: true },
      vexil: { parentsWithChildFeatures: [], hasDeletedDependencies: false },
    },
  );
  step("archive both", "POST", `${project}/archive`, { features: ["checkout", "checkout-coupons"] }, 202);
  step("archive one", "DELETE", feature("old-banner"), undefined, 202);
  step("archive an unknown flag in bulk", "POST", `${project}/archive`, { features: ["ghost"] }, 202);
  step("archive an unknown flag", "DELETE", feature("ghost"), undefined, 404);
  step("search the archived", "GET", search("archived=IS:true"), undefined, 200, found);
  step("search without the archived", "GET", search("query=checkout"), undefined, 200, found);
  step("an archived flag's tags", "GET", tags("checkout"), undefined, 200, tagList);
  step("an archived name is taken", "POST", `${project}/features`, { name: "old-banner" }, 409);
  served("three flags archived");

  // Revive.
  differs("revive the child while its parent is archived", "POST", "/api/admin/archive/revive/checkout-coupons", undefined, 200, 409, kept);
  step("revive both", "POST", `${project}/revive`, { features: ["checkout", "checkout-coupons"] }, 200);
  step("revive one", "POST", "/api/admin/archive/revive/old-banner", undefined, 200);
  differs(
    "revive a flag that is not archived",
    "POST",
    "/api/admin/archive/revive/ops-throttle",
    undefined,
    200,
    400,
    "nothing to revive: docs/flag-model.md#archive-revive-delete",
  );
  step("revive an unknown flag", "POST", "/api/admin/archive/revive/ghost", undefined, 404);
  step("revive unknown flags in bulk", "POST", `${project}/revive`, { features: ["ghost"] }, 200);
  step("search the archived after revive", "GET", search("archived=IS:true"), undefined, 200, found);
  served("revived flags come back off", {
    feature: "checkout-coupons",
    field: "dependencies",
    unleash: undefined,
    vexil: [{ feature: "checkout", enabled: true }],
    reason: kept,
  });

  step("the child depends on the parent again", "POST", `${feature("checkout-coupons")}/dependencies`, { feature: "checkout" }, 200);
  served("the dependency again on both");

  // Delete for good.
  step("archive the flag to retire again", "DELETE", feature("old-banner"), undefined, 202);
  differs(
    "delete a live flag",
    "DELETE",
    "/api/admin/archive/dark-mode",
    undefined,
    200,
    400,
    "the caller learns nothing was deleted: docs/flag-model.md#archive-revive-delete",
  );
  differs(
    "delete an unknown flag",
    "DELETE",
    "/api/admin/archive/ghost",
    undefined,
    200,
    404,
    "the caller learns nothing was deleted: docs/flag-model.md#archive-revive-delete",
  );
  step("delete an archived flag", "DELETE", "/api/admin/archive/old-banner", undefined, 200);
  step("archive parent and child", "POST", `${project}/archive`, { features: ["checkout", "checkout-coupons"] }, 202);
  differs("delete the parent alone", "DELETE", "/api/admin/archive/checkout", undefined, 200, 409, kept);
  step("delete both and the bare one", "POST", `${project}/delete`, { features: ["checkout", "checkout-coupons", "welcome-tour"] }, 200);
  step("delete a live flag in bulk", "POST", `${project}/delete`, { features: ["dark-mode"] }, 200);
  step("search the archived after delete", "GET", search("archived=IS:true"), undefined, 200, found);
  step("search everything", "GET", search(""), undefined, 200, found);
  step("a deleted name is free", "POST", `${project}/features`, { name: "old-banner", description: "Autumn banner" }, 201);
  served("after delete");
}

test.run();
