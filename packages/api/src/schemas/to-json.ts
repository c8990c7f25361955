/** Dates become ISO strings, recursively, so outputs match the `z.iso.datetime()` schemas. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends Array<infer U>
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

export function toJson<T>(value: T): Jsonified<T> {
  if (value === null || typeof value !== "object") return value as Jsonified<T>;
  if (value instanceof Date) return value.toISOString() as Jsonified<T>;
  if (Array.isArray(value)) return value.map(toJson) as Jsonified<T>;
  // for...in, not Object.entries: lists run this over every field of every row, and an array of
  // [key, value] pairs per object was the largest allocation of the pending list under load.
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (Object.hasOwn(source, key)) out[key] = toJson(source[key]);
  }
  return out as Jsonified<T>;
}
