import fc from "fast-check";

export type JsonSchema = Record<string, any>;

export interface ArbitraryOptions {
  /** Resolves a `$ref` of the document. */
  resolve(ref: string): JsonSchema;
  /** Values to prefer for a property of that name (existing ids, names), mixed with generated ones. */
  hint?(property: string): fc.Arbitrary<unknown> | undefined;
}

const MAX_DEPTH = 6;
const URL_SAFE = fc.stringMatching(/^[a-z0-9_~-][a-z0-9_.~-]{0,24}$/);

/**
 * Values that a JSON schema (OpenAPI 3.1 flavour) accepts, as a fast-check arbitrary. It covers the
 * keywords the served document uses; the fuzzer breaks these valid values afterwards.
 */
export function arbitraryFor(schema: JsonSchema, options: ArbitraryOptions, depth = 0, property?: string): fc.Arbitrary<unknown> {
  const hinted = property ? options.hint?.(property) : undefined;
  const generated = generate(schema, options, depth, property);
  return hinted ? fc.oneof({ arbitrary: hinted, weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
}

function generate(schema: JsonSchema, options: ArbitraryOptions, depth: number, property?: string): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryFor(options.resolve(schema.$ref), options, depth, property);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: JsonSchema) => arbitraryFor(s, options, depth + 1, property)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => arbitraryFor({ ...schema, type }, options, depth + 1, property)));
  if (depth > MAX_DEPTH) return fc.constant(null);

  switch (schema.type) {
    case "string":
      return stringFor(schema, property);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items ? arbitraryFor(schema.items, options, depth + 1) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries(properties)) model[name] = arbitraryFor(sub, options, depth + 1, name);
      const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((k: string) => k in model) });
      if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        const extra = fc.dictionary(
          fc.string({ minLength: 1, maxLength: 10 }),
          arbitraryFor(schema.additionalProperties, options, depth + 1),
          { maxKeys: 3 },
        );
        return fc.tuple(record, extra).map(([r, e]) => ({ ...e, ...r }));
      }
      return record;
    }
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: JsonSchema, property?: string): fc.Arbitrary<string> {
  if (schema.format === "date-time") {
    // Mostly future instants, as expiries and schedules must be; now and then a past one.
    const soon = Date.now() + 3600_000;
    return fc.oneof(
      fc.integer({ min: soon, max: soon + 365 * 86400_000 }).map((t) => new Date(t).toISOString()),
      fc.integer({ min: 0, max: soon }).map((t) => new Date(t).toISOString()),
    );
  }
  if (schema.format === "email") return fc.emailAddress();
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  // Names in paths are URL-safe; a generated name should mostly be one, or it only tests the 400.
  if (property && /^(id|name|environment|feature|projectId|featureName|contextName|stickiness)$/.test(property)) {
    return fc.oneof(
      URL_SAFE.filter((s) => s.length >= minLength && s.length <= Math.max(maxLength, minLength) && s !== "." && s !== ".."),
      fc.string({ minLength, maxLength }),
    );
  }
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: "grapheme" }));
}
