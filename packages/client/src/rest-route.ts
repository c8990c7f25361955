import type { RouterInputs } from "./procedures.ts";

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The documented path; `{name}` takes the input field of that name. */
  path: string;
  /** Whether the request carries a JSON body. */
  hasBody: boolean;
  /** For a body that is not an object: the input field sent as the whole body. */
  body?: string;
}

/**
 * One route for every procedure of the router: the compiler refuses a missing or an extra one.
 * Used by the generated `rest-routes.ts`, which git (and so knip) does not see.
 * @public
 */
export type RestRouteTable = { [G in keyof RouterInputs]: { [P in keyof RouterInputs[G]]: RestRoute } };
