import { createRestClient, type RouterOutputs } from "../../src/index.ts";
import { ADMIN_PASSWORD, ADMIN_TOKEN } from "./start-server.ts";

/**
 * Turns on change requests in `production` of the default project and starts a Draft there, as the
 * logged-in user `admin`, which then has it pending: a change to the variants of `feature`.
 */
export async function draftChangeRequest(
  baseUrl: string,
  feature: string,
  variants: { name: string }[],
): Promise<RouterOutputs["changeRequests"]["addChange"]> {
  const admin = createRestClient({ baseUrl, token: ADMIN_TOKEN });
  await admin.changeRequests.setConfig({
    projectId: "default",
    environment: "production",
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  const author = createRestClient({ baseUrl });
  await author.auth.login({ username: "admin", password: ADMIN_PASSWORD });
  return author.changeRequests.addChange({
    projectId: "default",
    environment: "production",
    feature,
    action: "patchVariant",
    payload: { variants },
  });
}
