import { sendJson } from "../rest-bridge.ts";
import type { RawHandler } from "../trpc.ts";
import { ofrepFlag } from "./ofrep-evaluate.ts";

/**
 * `POST /ofrep/v1/evaluate/flags/{key}` over REST (docs/sdk-protocols.md#ofrep): raw, so that the
 * body is read as OFREP sends it (any JSON, a PARSE_ERROR when it is no object) and its failures
 * leave in OFREP's body.
 */
export const handleOfrepFlag: RawHandler = async (_req, res, ctx, { params, body }) => {
  sendJson(res, 200, await ofrepFlag(ctx, params.key as string, body));
};
