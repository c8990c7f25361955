import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type Banner,
  createBanner,
  deleteBanner,
  listBanners,
  NotFoundError,
  type Principal,
  setBannerEnabled,
  updateBanner,
  ValidationError,
} from "../src/index.ts";
import { rejects } from "./support/rejects.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db, write } = testDb;
const admin: Principal = { kind: "admin-token", tokenId: 1, tokenName: "ci-token" };
const alice: Principal = { kind: "user", userId: 7, username: "alice", rootRole: 1, via: "session" };

const bannerEvents = () => db.selectFrom("events").selectAll().where("type", "like", "banner-%").orderBy("id").execute();
const bannerCount = async () => Number((await db.selectFrom("banners").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

/** A banner as its event stores it: JSON, so the date is an ISO string. */
const asJson = (banner: Banner) => JSON.parse(JSON.stringify(banner));

test.before.each(async () => {
  await db.deleteFrom("banners").execute();
  await db.deleteFrom("events").execute();
});

test("create fills the defaults and stores the rest as given", async () => {
  const banner = await createBanner(db, admin, { message: "Maintenance **tonight**" });
  assert.ok(Number.isInteger(banner.id) && banner.id >= 1);
  assert.instance(banner.createdAt, Date);
  const { id, createdAt, ...rest } = banner;
  assert.equal(rest, {
    message: "Maintenance **tonight**",
    enabled: true,
    variant: "info",
    sticky: false,
    icon: null,
    link: null,
    linkText: null,
    dialogTitle: null,
    dialog: null,
  });
  assert.equal(await listBanners(db), [banner]);
});

test("create keeps every given field, markdown and white space untouched", async () => {
  const fields = {
    message: "  # Title\n\n- [x] *done*  ",
    enabled: false,
    variant: "success" as const,
    sticky: true,
    icon: "none",
    link: "dialog",
    linkText: "",
    dialogTitle: "Details <b>",
    dialog: "```js\nalert(1)\n```",
  };
  const banner = await createBanner(db, admin, fields);
  const { id, createdAt, ...rest } = banner;
  assert.equal(rest, fields);
  assert.equal((await listBanners(db))[0], banner);
});

test("create records banner-created with the stored banner, in the same transaction", async () => {
  const banner = await createBanner(db, alice, { message: "hello" });
  const events = await bannerEvents();
  assert.is(events.length, 1);
  assert.is(events[0]?.type, "banner-created");
  assert.is(events[0]?.created_by, "alice");
  assert.is(events[0]?.created_by_user_id, 7);
  assert.equal(events[0]?.data, asJson(banner));
  assert.is(events[0]?.pre_data, null);

  // A create joins a caller's transaction; when that fails after the create, neither the banner nor its event stays.
  await rejects(
    write(async (trx) => {
      await createBanner(trx, admin, { message: "rolled back" });
      throw new Error("later step failed");
    }),
    Error,
  );
  assert.is(await bannerCount(), 1);
  assert.is((await bannerEvents()).length, 1);
});

test("create refuses an empty or blank message and an unknown variant, storing nothing", async () => {
  for (const message of ["", "   ", "\n\t"]) {
    const error = await rejects(createBanner(db, admin, { message }), ValidationError);
    assert.equal(error.details, [{ path: "message", message: "must not be empty" }]);
  }
  const error = await rejects(createBanner(db, admin, { message: "m", variant: "danger" as never }), ValidationError);
  assert.equal(
    error.details.map((d) => d.path),
    ["variant"],
  );
  assert.is(await bannerCount(), 0);
  assert.equal(await bannerEvents(), []);
});

test("ids and createdAt sort the same way under concurrent creates", async () => {
  const created = await Promise.all(Array.from({ length: 60 }, (_, i) => createBanner(db, admin, { message: `banner ${i}` })));
  const stored = await db.selectFrom("banners").select(["id", "created_at"]).orderBy("id").execute();
  assert.equal(
    stored.map((r) => r.id),
    created.map((b) => b.id).sort((a, b) => a - b),
  );
  for (let i = 1; i < stored.length; i++) {
    const [prev, next] = [stored[i - 1]!, stored[i]!];
    // Strictly later, and at the millisecond precision the API shows.
    assert.ok(
      next.created_at.toISOString() > prev.created_at.toISOString(),
      `banner ${next.id} (${next.created_at.toISOString()}) must be later than ${prev.id} (${prev.created_at.toISOString()})`,
    );
  }
});

test("createdAt never goes back, even when the newest banner's time is ahead of the clock", async () => {
  const first = await createBanner(db, admin, { message: "first" });
  // As if the clock had stepped back an hour since the first banner was created.
  await sql`update banners set created_at = created_at + interval '1 hour' where id = ${first.id}`.execute(db);
  const [ahead] = await listBanners(db);
  const second = await createBanner(db, admin, { message: "second" });
  assert.ok(second.id > first.id);
  assert.is(second.createdAt.getTime(), ahead!.createdAt.getTime() + 1);
});

test("the list is newest first", async () => {
  for (const message of ["one", "two", "three"]) await createBanner(db, admin, { message });
  assert.equal(
    (await listBanners(db)).map((b) => b.message),
    ["three", "two", "one"],
  );
});

test("update: undefined keeps a field, null clears it, a value replaces it", async () => {
  const before = await createBanner(db, admin, {
    message: "m",
    icon: "warning",
    link: "https://example.com",
    linkText: "More",
    dialog: "d",
  });
  const after = await updateBanner(db, alice, before.id, { icon: null, link: "dialog", variant: "error", sticky: true, dialog: undefined });
  assert.equal(after, { ...before, icon: null, link: "dialog", variant: "error", sticky: true });
  assert.equal(await listBanners(db), [after]);

  const events = await bannerEvents();
  assert.equal(
    events.map((e) => e.type),
    ["banner-created", "banner-updated"],
  );
  assert.equal(events[1]?.data, asJson(after));
  assert.equal(events[1]?.pre_data, asJson(before));
  assert.is(events[1]?.created_by, "alice");
});

test("update with nothing to change returns the banner as it is and still records the request", async () => {
  const banner = await createBanner(db, admin, { message: "m" });
  assert.equal(await updateBanner(db, admin, banner.id, {}), banner);
  const updated = (await bannerEvents()).filter((e) => e.type === "banner-updated");
  assert.equal(
    updated.map((e) => [e.data, e.pre_data]),
    [[asJson(banner), asJson(banner)]],
  );
});

test("update refuses an empty message and an unknown variant, changing nothing", async () => {
  const banner = await createBanner(db, admin, { message: "keep me" });
  await rejects(updateBanner(db, admin, banner.id, { message: "" }), ValidationError);
  await rejects(updateBanner(db, admin, banner.id, { message: null as never }), ValidationError);
  await rejects(updateBanner(db, admin, banner.id, { variant: "purple" as never }), ValidationError);
  assert.equal(await listBanners(db), [banner]);
  assert.equal(
    (await bannerEvents()).map((e) => e.type),
    ["banner-created"],
  );
});

test("on and off set enabled and record banner-updated", async () => {
  const banner = await createBanner(db, admin, { message: "m" });
  const off = await setBannerEnabled(db, admin, banner.id, false);
  assert.equal(off, { ...banner, enabled: false });
  const on = await setBannerEnabled(db, admin, banner.id, true);
  assert.equal(on, banner);
  const events = (await bannerEvents()).filter((e) => e.type === "banner-updated");
  assert.equal(
    events.map((e) => [(e.pre_data as Banner).enabled, (e.data as Banner).enabled]),
    [
      [true, false],
      [false, true],
    ],
  );
});

test("delete removes the banner, returns it and records banner-deleted", async () => {
  const keep = await createBanner(db, admin, { message: "keep" });
  const gone = await createBanner(db, admin, { message: "gone" });
  assert.equal(await deleteBanner(db, alice, gone.id), gone);
  assert.equal(await listBanners(db), [keep]);
  const deleted = (await bannerEvents()).filter((e) => e.type === "banner-deleted");
  assert.equal(
    deleted.map((e) => [e.data, e.pre_data, e.created_by]),
    [[null, asJson(gone), "alice"]],
  );
});

test("an unknown id is NotFoundError for update, on/off and delete, and nothing is recorded", async () => {
  const banner = await createBanner(db, admin, { message: "m" });
  await deleteBanner(db, admin, banner.id);
  for (const id of [banner.id, 999_999, Number.MAX_SAFE_INTEGER]) {
    const error = await rejects(updateBanner(db, admin, id, { message: "x" }), NotFoundError);
    assert.is(error.message, `There is no banner with id ${id}.`);
    await rejects(setBannerEnabled(db, admin, id, false), NotFoundError);
    await rejects(deleteBanner(db, admin, id), NotFoundError);
  }
  assert.equal(
    (await bannerEvents()).map((e) => e.type),
    ["banner-created", "banner-deleted"],
  );
});

test.after(async () => {
  await testDb.close();
});

test.run();
