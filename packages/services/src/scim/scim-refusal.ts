import { ValidationError } from "../errors/domain-error.ts";

/** RFC 7644 §3.12's `scimType`s of a 400 that Vexil answers. */
type ScimType = "invalidFilter" | "invalidPath" | "invalidSyntax" | "invalidValue" | "noTarget" | "mutability";

/**
 * A SCIM request that breaks a rule of the protocol: a 400 (a ValidationError), with the
 * `scimType` that RFC 7644 §3.12 gives the case, so that SCIM's error body can name it.
 */
export class ScimRefusal extends ValidationError {
  readonly scimType: ScimType;
  constructor(scimType: ScimType, message: string, path = "") {
    super(message, [{ path, message }]);
    this.scimType = scimType;
  }
}
