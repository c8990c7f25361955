/** Whether an If-None-Match header names this ETag (weak or strong) or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  // What a poll sends back: the one ETag it was given, as it was given.
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
}
