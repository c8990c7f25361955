/**
 * A GET's query parameters as its procedure's input fields: a repeated one becomes a list. The
 * query starts after the `?` at `queryAt` (-1: there is none).
 */
export function queryParameters(url: string, queryAt: number): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  if (queryAt === -1) return fields;
  for (const [key, value] of new URLSearchParams(url.slice(queryAt + 1))) {
    const seen = fields[key];
    fields[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return fields;
}
