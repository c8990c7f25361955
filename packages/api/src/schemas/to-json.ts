/** Dates become ISO strings, recursively, so outputs match the `z.iso.datetime()` schemas. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends Array<infer U>
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

export function toJson<T>(value: T): Jsonified<T> {
  if (value instanceof Date) return value.toISOString() as Jsonified<T>;
  if (Array.isArray(value)) return value.map(toJson) as Jsonified<T>;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out as Jsonified<T>;
  }
  return value as Jsonified<T>;
}
