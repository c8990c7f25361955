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
  const tags = (name: string) => `/api/admin/features/${name}/tags`;
  const search = (query: string) => `/api/admin/search/features?${query}`;

  // What of a reply is compared. Each server's own ids, times and creator are left out, and
  // what Vexil adds to Unleash's bodies (a feature's archivedAt and lastSeenAt, say) is not looked at.
  const body = (reply: Reply) => reply.json;
  const errorName = (reply: Reply) => reply.json?.name;
  const tagList = (reply: Reply) => reply.json?.tags;
  const strategy = (reply: Reply) => {
    const { id: _id, ...rest } = reply.json ?? {};
    return rest;
  };
  const typesById = (reply: Reply) => [...(reply.json?.types ?? [])].sort((a, b) => a.id.localeCompare(b.id));
  const metadata = ({ json }: Reply) => ({
    name: json?.name,
    description: json?.description,
    type: json?.type,
    project: json?.project,
    stale: json?.stale,
    impressionData: json?.impressionData,
    archived: json?.archived,
  });
  /** A feature with its environments (their sort order aside: docs/peer-tests.md#differences-the-peer-tests-found). */
  const featureView = (reply: Reply) => ({
    ...metadata(reply),
    dependencies: reply.json?.dependencies,
    environments: reply.json?.environments?.map((e: any) => ({
      name: e.name,
      type: e.type,
      enabled: e.enabled,
      lastSeenAt: e.lastSeenAt,
      strategies: e.strategies.map(({ id: _id, ...s }: any) => s),
    })),
  });
  /**
   * A search's total and each flag found, in order; its creator (docs/search.md#created-by), times and
   * lifecycle aside (docs/peer-tests.md#differences-the-peer-tests-found).
   */
  const found = (reply: Reply) => ({
    total: reply.json?.total,
    features: reply.json?.features?.map((f: any) => ({
      name: f.name,
      description: f.description,
      type: f.type,
      project: f.project,
      stale: f.stale,
      favorite: f.favorite,
      impressionData: f.impressionData,
      archived: f.archivedAt !== null,
      dependencyType: f.dependencyType,
      segments: f.segments,
      // Unleash leaves `tags` out when there are none (docs/search.md#response).
      tags: f.tags ?? [],
      environments: f.environments.map(({ sortOrder: _, ...e }: any) => e),
    })),
  });
  const dependencyTypes = (reply: Reply) => Object.fromEntries(reply.json?.features?.map((f: any) => [f.name, f.dependencyType]) ?? []);
  const withoutDependencyTypes = (reply: Reply) => {
    const { total, features } = found(reply);
    return { total, features: features?.map(({ dependencyType: _, ...f }: any) => f) };
  };

  const create = (what: string, name: string, description: string, type = "release") =>
    step(what, "POST", `${project}/features`, { name, description, type }, 201, metadata);
  const rollout = (name: string, percent: number) => ({
    name: "flexibleRollout",
    parameters: { rollout: String(percent), stickiness: "default", groupId: name },
    constraints: [],
  });
  const kept = "dependencies are kept through an archive: docs/flag-lifecycle.md#archive-revive-delete";

  // Flags: a parent with a dependent child, and three others; all but one switched on in development.
  create("create the parent", "checkout", "New checkout");
  create("create the child", "checkout-coupons", "Coupons at checkout", "experiment");
  create("create a third flag", "dark-mode", "Dark theme");
  create("create an operational flag", "ops-throttle", "Throttle", "operational");
  create("create a flag to retire", "old-banner", "Spring banner");
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
  differs(
    "an unknown parent",
    "POST",
    `${feature("dark-mode")}/dependencies`,
    { feature: "ghost" },
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
    step(`a rollout of ${percent}% for ${name}`, "POST", `${development(name)}/strategies`, rollout(name, percent), 200, strategy);
    step(`switch ${name} on`, "POST", `${development(name)}/on`, undefined, 200);
  }
  step("the child", "GET", feature("checkout-coupons"), undefined, 200, featureView);
  served("five flags, the child with its dependency");

  // A flag switched on with no strategy: Unleash adds one, Vexil does not; then it goes for good.
  create("create a flag to switch on bare", "welcome-tour", "First-visit tour");
  step("switch it on with no strategy", "POST", `${development("welcome-tour")}/on`, undefined, 200);
  served("the bare flag", {
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
  step("archive the bare flag", "DELETE", feature("welcome-tour"), undefined, 202);
  step("delete it for good", "DELETE", "/api/admin/archive/welcome-tour", undefined, 200);

  // Tag types and tags.
  step(
    "create a tag type",
    "POST",
    "/api/admin/tag-types",
    { name: "team", description: "Owning team", icon: "group" },
    201,
    ({ json }) => ({
      name: json?.name,
      description: json?.description,
      icon: json?.icon,
    }),
  );
  step("the tag types", "GET", "/api/admin/tag-types", undefined, 200, body);
  step("tag the parent", "POST", tags("checkout"), { type: "team", value: "payments" }, 201, body);
  step("tag the parent again", "POST", tags("checkout"), { type: "team", value: "payments" }, 201, body);
  step("tag the child", "POST", tags("checkout-coupons"), { type: "simple", value: "beta" }, 201, body);
  // Unleash names this 400 BadDataError; Vexil has one name per status (docs/errors.md#error-names).
  step("tag with an unknown tag type", "POST", tags("checkout-coupons"), { type: "ghost", value: "beta" }, 400);
  step("the parent's tags", "GET", tags("checkout"), undefined, 200, body);
  step(
    "replace a tag of the child",
    "PUT",
    tags("checkout-coupons"),
    { addedTags: [{ type: "team", value: "payments" }], removedTags: [{ type: "simple", value: "beta" }] },
    200,
    body,
  );
  step("the child's tags", "GET", tags("checkout-coupons"), undefined, 200, body);
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
  step("an unknown flag's tags", "GET", tags("ghost"), undefined, 404, errorName);
  step("search by tag", "GET", search("tag=INCLUDE:simple:ui"), undefined, 200, found);
  differs(
    "search by a tag's value",
    "GET",
    search("query=payments"),
    undefined,
    200,
    200,
    "tag values are searched too: docs/search.md#query",
    {
      pick: (r) => r.json?.features?.map((f: { name: string }) => f.name),
      unleash: [],
      vexil: ["checkout"],
    },
  );
  served("tags are not served");

  // Feature types and their lifetimes.
  step("the feature types", "GET", "/api/admin/feature-types", undefined, 200, typesById);
  step("operational flags live 30 days", "PUT", "/api/admin/feature-types/operational/lifetime", { lifetimeDays: 30 }, 200, body);
  step("an unknown feature type", "PUT", "/api/admin/feature-types/ghost/lifetime", { lifetimeDays: 30 }, 404, errorName);
  differs(
    "a lifetime as a string",
    "PUT",
    "/api/admin/feature-types/release/lifetime",
    { lifetimeDays: "5" },
    200,
    400,
    "a lifetime is a number: docs/flag-lifecycle.md#stale-flags-and-feature-types",
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
    "a typo is not a silent success: docs/flag-lifecycle.md#stale-flags-and-feature-types",
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
    "an operation that would be ignored is refused: docs/flag-lifecycle.md#stale-flags-and-feature-types",
  );
  step("the patched flag", "GET", feature("ops-throttle"), undefined, 200, featureView);
  step("search by description", "GET", search("query=throttle"), undefined, 200, found);
  served("after the patch");

  // Archive, one and in bulk.
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
      pick: (r) => r.json?.hasDeletedDependencies,
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
    "a conflict with stored data, not with permissions: docs/flag-lifecycle.md#archive-revive-delete",
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
  step("archive an unknown flag", "DELETE", feature("ghost"), undefined, 404, errorName);
  differs("search the archived", "GET", search("archived=IS:true"), undefined, 200, 200, kept, {
    pick: dependencyTypes,
    unleash: { checkout: null, "checkout-coupons": null, "old-banner": null },
    vexil: { checkout: "parent", "checkout-coupons": "child", "old-banner": null },
    alike: withoutDependencyTypes,
  });
  step("search without the archived", "GET", search("query=checkout"), undefined, 200, found);
  step("an archived flag's tags", "GET", tags("checkout"), undefined, 200, body);
  step("an archived name is taken", "POST", `${project}/features`, { name: "old-banner" }, 409, errorName);
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
    "nothing to revive: docs/flag-lifecycle.md#archive-revive-delete",
  );
  step("revive an unknown flag", "POST", "/api/admin/archive/revive/ghost", undefined, 404, errorName);
  step("revive unknown flags in bulk", "POST", `${project}/revive`, { features: ["ghost"] }, 200);
  step("search the archived after revive", "GET", search("archived=IS:true"), undefined, 200, found);
  differs("the revived child", "GET", feature("checkout-coupons"), undefined, 200, 200, kept, {
    pick: (r) => r.json?.dependencies,
    unleash: [],
    vexil: [{ feature: "checkout", enabled: true, variants: [] }],
    alike: (r) => ({ ...featureView(r), dependencies: undefined }),
  });
  served("revived flags come back off", {
    feature: "checkout-coupons",
    field: "dependencies",
    unleash: undefined,
    vexil: [{ feature: "checkout", enabled: true }],
    reason: kept,
  });
  step("the child depends on the parent again", "POST", `${feature("checkout-coupons")}/dependencies`, { feature: "checkout" }, 200);
  step("search the parent and child", "GET", search("query=checkout"), undefined, 200, found);
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
    "the caller learns nothing was deleted: docs/flag-lifecycle.md#archive-revive-delete",
  );
  differs(
    "delete an unknown flag",
    "DELETE",
    "/api/admin/archive/ghost",
    undefined,
    200,
    404,
    "the caller learns nothing was deleted: docs/flag-lifecycle.md#archive-revive-delete",
  );
  step("delete an archived flag", "DELETE", "/api/admin/archive/old-banner", undefined, 200);
  step("archive parent and child", "POST", `${project}/archive`, { features: ["checkout", "checkout-coupons"] }, 202);
  differs("delete the parent alone", "DELETE", "/api/admin/archive/checkout", undefined, 200, 409, kept);
  step("delete both", "POST", `${project}/delete`, { features: ["checkout", "checkout-coupons"] }, 200);
  step("delete a live flag in bulk", "POST", `${project}/delete`, { features: ["dark-mode"] }, 200);
  step("a deleted flag is gone", "GET", feature("checkout"), undefined, 404, errorName);
  step("a deleted flag's tags are gone", "GET", tags("checkout"), undefined, 404, errorName);
  step("search the archived after delete", "GET", search("archived=IS:true"), undefined, 200, found);
  step("search everything", "GET", search(""), undefined, 200, found);
  create("a deleted name is free", "old-banner", "Autumn banner");
  served("after delete");
}

test.run();
