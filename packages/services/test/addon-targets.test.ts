import { test } from "uvu";
import * as assert from "uvu/assert";
import { assertAllowedTarget } from "../src/addons/addon-target.ts";
import { ValidationError } from "../src/errors/domain-error.ts";

// docs/webhooks.md#private-addresses: the edges of each refused range, and their neighbours outside it.
const STRICT = { allowPrivateTargets: false };

const refused = async (url: string) =>
  assertAllowedTarget(url, STRICT).then(
    () => false,
    (error: unknown) => error instanceof ValidationError && error.details[0]?.path === "parameters.url",
  );

test("loopback, private, link-local and unspecified addresses, and their IPv4-mapped forms, are refused", async () => {
  for (const host of [
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "0.0.0.0",
    "[::1]",
    "[::]",
    "[fc00::1]",
    "[fdff:ffff::1]",
    "[fe80::1]",
    "[febf::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:a00:5]",
    "[::ffff:169.254.169.254]",
    "localhost",
  ]) {
    assert.ok(await refused(`https://${host}:8443/hook`), host);
  }
});

test("public addresses are taken, and with WEBHOOK_ALLOW_PRIVATE_TARGETS everything is", async () => {
  for (const host of [
    "93.184.215.14",
    "172.32.0.1",
    "172.15.255.255",
    "192.169.0.1",
    "11.0.0.1",
    "[2606:4700::1]",
    "[::ffff:8.8.8.8]",
    "[fec0::1]",
  ]) {
    assert.not.ok(await refused(`http://${host}/hook`), host);
  }
  await assertAllowedTarget("http://127.0.0.1:9/hook", { allowPrivateTargets: true });
  await assertAllowedTarget("http://localhost:9/hook", { allowPrivateTargets: true });
});

test.run();
