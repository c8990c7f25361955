import { tokenTag, userTag } from "@vexil/db";
import type { Principal } from "@vexil/services";

/** What the database announces a change of, for the credential `principal` was found by: its token's row, or its user's. */
export function credentialTags(principal: Principal): string[] {
  if (principal.kind !== "user") return [tokenTag(principal.tokenId)];
  return principal.tokenId === undefined ? [userTag(principal.userId)] : [userTag(principal.userId), tokenTag(principal.tokenId)];
}
