import { GROUP_SCHEMA, SCIM_MAX_RESULTS, USER_SCHEMA } from "@vexil/services";

const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

/** A list as SCIM answers one (RFC 7644 §3.4.2). */
export function listResponse<T>(resources: T[], totalResults = resources.length, startIndex = 1) {
  return { schemas: [LIST_RESPONSE], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** What this service provider does (RFC 7643 §5): PATCH and filters, no bulk, sorting, ETags or password changes. */
export const SERVICE_PROVIDER_CONFIG = {
  schemas: [CONFIG_SCHEMA],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "OAuth Bearer Token",
      description: "A SCIM token from POST /api/admin/api-tokens with type scim, in Authorization: Bearer <token>.",
      primary: true,
    },
  ],
  meta: { resourceType: "ServiceProviderConfig", location: "/scim/v2/ServiceProviderConfig" },
};

const resourceType = (name: "User" | "Group", schema: string) => ({
  schemas: [RESOURCE_TYPE_SCHEMA],
  id: name,
  name,
  endpoint: `/${name}s`,
  description: name === "User" ? "A person who signs in to Vexil" : "A group of users, for project roles",
  schema,
  schemaExtensions: [],
  meta: { resourceType: "ResourceType", location: `/scim/v2/ResourceTypes/${name}` },
});

export const RESOURCE_TYPES = listResponse([resourceType("User", USER_SCHEMA), resourceType("Group", GROUP_SCHEMA)]);

type Attribute = {
  name: string;
  type: string;
  required?: boolean;
  multiValued?: boolean;
  mutability?: string;
  subAttributes?: Attribute[];
};

const attribute = ({ required = false, multiValued = false, mutability = "readWrite", ...rest }: Attribute): Record<string, unknown> => ({
  multiValued,
  required,
  caseExact: false,
  mutability,
  returned: "default",
  uniqueness: "none",
  ...rest,
  ...(rest.subAttributes ? { subAttributes: rest.subAttributes.map(attribute) } : {}),
});

/** The attributes Vexil keeps of each resource (RFC 7643 §7); others a provider sends are ignored. */
export const SCHEMAS = listResponse([
  {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: "User",
    description: "A Vexil user provisioned by an identity provider",
    attributes: [
      { ...attribute({ name: "userName", type: "string", required: true }), uniqueness: "server" },
      attribute({ name: "externalId", type: "string" }),
      attribute({ name: "displayName", type: "string" }),
      attribute({
        name: "name",
        type: "complex",
        subAttributes: [
          { name: "formatted", type: "string" },
          { name: "givenName", type: "string" },
          { name: "familyName", type: "string" },
        ],
      }),
      attribute({
        name: "emails",
        type: "complex",
        multiValued: true,
        subAttributes: [
          { name: "value", type: "string" },
          { name: "type", type: "string" },
          { name: "primary", type: "boolean" },
        ],
      }),
      attribute({ name: "active", type: "boolean" }),
    ],
    meta: { resourceType: "Schema", location: `/scim/v2/Schemas/${USER_SCHEMA}` },
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: "Group",
    description: "A Vexil group provisioned by an identity provider",
    attributes: [
      { ...attribute({ name: "displayName", type: "string", required: true }), uniqueness: "server" },
      attribute({ name: "externalId", type: "string" }),
      attribute({
        name: "members",
        type: "complex",
        multiValued: true,
        subAttributes: [
          { name: "value", type: "string", mutability: "immutable" },
          { name: "display", type: "string", mutability: "readOnly" },
        ],
      }),
    ],
    meta: { resourceType: "Schema", location: `/scim/v2/Schemas/${GROUP_SCHEMA}` },
  },
]);
