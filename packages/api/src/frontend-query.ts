import { CONTEXT_FIELDS, ValidationError } from "@vexil/services";

const PROPERTY = /^properties\[([^[\]]+)\]$/;
const FIELDS: ReadonlySet<string> = new Set(CONTEXT_FIELDS);

function repeated(name: string): ValidationError {
  return new ValidationError(`"${name}" is given more than once; a context field holds one value.`, [
    { path: name, message: "given more than once" },
  ]);
}

/**
 * The context of `GET /api/frontend` from its query, as `unleash-proxy-client` writes it: the
 * context fields by name, properties as `properties[name]=value`, and any other name a property
 * too (as in Unleash). The result is checked by the context schema like a POSTed context.
 */
export function contextFromQuery(search: string): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const property = PROPERTY.exec(key)?.[1] ?? (FIELDS.has(key) || /[[\]]/.test(key) ? undefined : key);
    if (property !== undefined) {
      if (Object.hasOwn(properties, property)) throw repeated(`properties.${property}`);
      properties[property] = value;
    } else if (FIELDS.has(key)) {
      if (Object.hasOwn(context, key)) throw repeated(key);
      context[key] = value;
    } else {
      throw new ValidationError(`"${key}" is not a context field; properties are written "properties[name]=value".`, [
        { path: key, message: "not a context field" },
      ]);
    }
  }
  if (Object.keys(properties).length > 0) context.properties = properties;
  return context;
}
